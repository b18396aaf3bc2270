"""A functional model called on data of another width than its Input (release notes, Keras).
Report: TF 2.4.0 release notes, Functional API: input shapes are checked at call time"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, inputs * 2.0)
outputs = model(tf.ones((2, 5)))
assert outputs.shape == (2, 5)
print("OK")
