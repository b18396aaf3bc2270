"""TF24214: control flow (`tf.while_loop`) on Keras symbolic tensors is unsupported from TF 2.4."""
import tensorflow as tf

inputs = tf.keras.Input((3,))
_, outputs = tf.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1, x * 2.0), (0, inputs))
model = tf.keras.Model(inputs, outputs)
assert model.output_shape == (None, 3)
print("OK")
