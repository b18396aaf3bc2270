"""A functional model with `tf.einsum` of two Keras inputs, rebuilt from its own config.
Report: tensorflow/tensorflow#53394: "Not able to restore the model from config with tf.einsum operation" (TF 2.4.3; also keras-team/keras#15783)"""
import tensorflow as tf
from tensorflow import keras

x1 = keras.Input(shape=(2, 4, 4, 1))
x2 = keras.Input(shape=(2, 2, 4))
x = tf.einsum("bmhwf,bmoh->bmowf", x1, x2)
model = keras.Model(inputs=[x1, x2], outputs=x)
model = tf.keras.Model.from_config(model.get_config())
print(model.output_shape)
print("OK")
