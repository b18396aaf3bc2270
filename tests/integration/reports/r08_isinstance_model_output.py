"""A library that accepts only tensors, checked with isinstance on a model's output.
Report: https://github.com/nengo/nengo-dl/pull/185"""
import tensorflow as tf


def check_tensor(x):
    if not isinstance(x, tf.Tensor):
        raise TypeError("not a tensor: %r" % (x,))
    return x


inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
check_tensor(model.output)
print("OK")
