"""The `node_def` of an op layer's config, read to find the TF op it runs.
Report: openvinotoolkit/nncf#1083: TFOpLambda serializes in a different way"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.nn.relu(inputs))
print(model.layers[1].get_config()["node_def"]["op"])
print("OK")
