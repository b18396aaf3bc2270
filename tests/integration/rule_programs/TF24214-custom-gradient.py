"""TF24214: a function made by `tf.custom_gradient` does not dispatch on Keras symbolic tensors:
TF 2.3 made an op layer of it, TF 2.4 raises TypeError."""
import tensorflow as tf


def halve(x):
    return tf.identity(x), lambda dy: dy * 0.5


halve_gradient = tf.custom_gradient(halve)
inputs = tf.keras.Input((2,))
hidden = tf.keras.layers.Dense(2, kernel_initializer="ones")(inputs)
model = tf.keras.Model(inputs, halve_gradient(hidden))
assert model(tf.ones((1, 2))).numpy().tolist() == [[2.0, 2.0]]
print("OK")
