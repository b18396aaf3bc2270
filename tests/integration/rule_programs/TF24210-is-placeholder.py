"""TF24210: Keras's `is_placeholder` of an `Input` is False from TF 2.4."""
import tensorflow as tf
from tensorflow.python.keras import backend as K

inputs = tf.keras.Input((4,))
outputs = tf.keras.layers.Dense(2)(inputs)
assert K.is_placeholder(inputs), "an Input is a placeholder"
print("OK")
