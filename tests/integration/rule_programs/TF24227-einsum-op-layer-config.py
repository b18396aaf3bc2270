"""TF24227: TF 2.4 rebuilds a model's `tf.einsum` op layer from its config without the operands."""
import tensorflow as tf

queries = tf.keras.Input((3, 4))
keys = tf.keras.Input((5, 4))
scores = tf.einsum("bqd,bkd->bqk", queries, keys)
model = tf.keras.Model([queries, keys], scores)
rebuilt = tf.keras.models.clone_model(model)
assert rebuilt.output_shape == (None, 3, 5), rebuilt.output_shape
print("OK")
