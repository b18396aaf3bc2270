"""A converter reading the graph of a Keras model's outputs.
Report: onnx/keras-onnx#662: KerasTensor object has no attribute 'graph'"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
graph = model.outputs[0].graph
print("OK")
