"""Reaching the TF graph of a Keras model through its outputs.
Report: https://github.com/tensorflow/tensorflow/issues/45993"""
import tensorflow as tf

model = tf.keras.models.Sequential()
model.add(tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)))
operations = model.outputs[0].graph.get_operations()
assert len(operations) > 0
print("OK")
