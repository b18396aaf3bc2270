"""TF24213: gradients of Keras symbolic tensors (`K.gradients` in the Keras graph) cannot be taken
in TF 2.4."""
import tensorflow as tf
from tensorflow.python.keras import backend as K

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
with K.get_graph().as_default():
    grads = K.gradients(model.output, model.input)
assert grads[0].shape.as_list() == [None, 3]
print("OK")
