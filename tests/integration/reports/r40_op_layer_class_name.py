"""The class name of an op layer in a model's config.
Report: openvinotoolkit/nncf#538: op layers are TFOpLambda from TF 2.4, not TensorFlowOpLayer"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.nn.relu(inputs))
names = [layer["class_name"] for layer in model.get_config()["layers"]]
assert "TensorFlowOpLayer" in names, names
print("OK")
