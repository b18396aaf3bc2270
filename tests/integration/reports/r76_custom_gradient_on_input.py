"""A tf.custom_gradient function applied to a Keras symbolic input.
Report: tensorflow/tensorflow#50741: KerasTensors do not support tf.custom_gradient()"""
import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):
    return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)


inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, clip_gradient(inputs))
print(model(tf.ones((1, 3))).numpy())
print("OK")
