"""TF24224: a functional model checks its inputs against its `Input`'s shape from TF 2.4."""
import numpy as np
import tensorflow as tf

steps = tf.keras.Input((10, 3))
model = tf.keras.Model(steps, tf.keras.layers.Dense(1)(steps))
scores = model.predict(np.zeros((4, 12, 3)))
print("OK")
