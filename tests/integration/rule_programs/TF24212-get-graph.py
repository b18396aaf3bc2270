"""TF24212: Keras layers called in `K.get_graph()` no longer build the functional model in TF 2.4."""
import tensorflow as tf
from tensorflow.python.keras import backend as K

inputs = tf.keras.Input((3,))
with K.get_graph().as_default():
    outputs = tf.keras.layers.Dense(2)(inputs)
model = tf.keras.Model(inputs, outputs)
assert model.output_shape == (None, 2)
print("OK")
