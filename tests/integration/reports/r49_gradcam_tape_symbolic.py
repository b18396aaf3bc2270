"""Grad-CAM taking a tape's gradient of a model's symbolic output.
Report: tensorflow/tensorflow#46194: 'KerasTensor' object has no attribute '_id'"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model.output)
grads = tape.gradient(loss, model.input)
print("OK")
