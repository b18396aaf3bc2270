"""A functional model predicting on data shaped otherwise than its Input.
Report: tensorflow/tensorflow#45914: TF 2.4 shows shape mismatch where 2.3.1 did not"""
import numpy as np
import tensorflow as tf

inputs = tf.keras.Input((4, 4))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
model.predict(np.ones((1, 6, 4)))
print("OK")
