"""TF24222: op layers are `TFOpLambda` from TF 2.4, not `TensorFlowOpLayer`."""
import tensorflow as tf

features = tf.keras.Input((4,))
model = tf.keras.Model(features, tf.math.square(features))
classes = {layer["class_name"] for layer in model.get_config()["layers"]}
assert "TensorFlowOpLayer" in classes, classes
print("OK")
