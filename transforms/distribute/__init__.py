"""tf.distribute (TF241xx): renamed strategy methods, hints and communication options, the removed
`experimental_make_numpy_dataset`, and the TF 2.3 `ParameterServerStrategy`."""
