"""A quantity of interest that requires the model's outputs to be backend tensors.
Report: https://github.com/truera/trulens/pull/46"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, [tf.keras.layers.Dense(2)(inputs), tf.keras.layers.Dense(1)(inputs)])
assert all(isinstance(out, tf.Tensor) for out in model.outputs)
print("OK")
