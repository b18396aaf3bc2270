"""A converter that recognises op layers by their class name.
Report: openvinotoolkit/nncf#1083: TFOpLambda layer support (Keras tensor)"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.nn.relu(inputs))
op_layers = [layer for layer in model.layers if type(layer).__name__ == "TensorFlowOpLayer"]
assert len(op_layers) == 1, [type(layer).__name__ for layer in model.layers]
print("OK")
