"""Packaging a Keras model: the GraphDef read from its first output's graph.
Report: https://github.com/uber/neuropod/issues/514"""
import tensorflow as tf

inputs = tf.keras.Input((4,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
graph_def = model.outputs[0].graph.as_graph_def()
assert len(graph_def.node) > 0
print("OK")
