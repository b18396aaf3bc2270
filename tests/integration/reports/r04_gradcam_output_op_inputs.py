"""Grad-CAM: the logits read as the input of the model output's softmax op.
Report: https://github.com/mskspi/PathCNN/issues/3"""
import tensorflow as tf

inputs = tf.keras.Input((4,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(3, activation="softmax")(inputs))
y_c = model.output.op.inputs[0][0, 1]
assert y_c.shape.rank == 0
print("OK")
