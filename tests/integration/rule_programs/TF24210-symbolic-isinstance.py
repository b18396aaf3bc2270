"""TF24210: a Keras symbolic input is no `tf.Tensor` from TF 2.4 (`tf.is_tensor` still holds)."""
import tensorflow as tf

inputs = tf.keras.Input((3,))
assert isinstance(inputs, tf.Tensor)
print("OK")
