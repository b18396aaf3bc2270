"""tf.data (TF244xx): tf.data service servers that take config tuples, `AUTOTUNE`, and
`Dataset.from_generator(output_signature=)`."""
