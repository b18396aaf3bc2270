"""A custom GAN training loop's progress bar from Keras's private training_utils.
Report: public code (GAN training scripts): `progbar = training_utils.get_progbar(generator, 'steps')`"""
import tensorflow as tf
from tensorflow.python.keras.engine import training_utils

noise = tf.keras.Input((4,))
generator = tf.keras.Model(noise, tf.keras.layers.Dense(2)(noise))
progbar = training_utils.get_progbar(generator, "steps")
progbar.params = {"verbose": 1, "epochs": 1, "steps": 1}
print("OK")
