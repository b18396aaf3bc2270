"""A type check of a functional layer's output with isinstance(x, tf.Tensor).
Report: https://github.com/tensorflow/tensorflow/issues/44613"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
x = tf.keras.layers.Dense(2)(inputs)
assert isinstance(x, tf.Tensor), f"expected a tf.Tensor, got {type(x).__name__}"
print("OK")
