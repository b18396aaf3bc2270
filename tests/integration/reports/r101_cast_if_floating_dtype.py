"""A Q-function's inputs cast to float32 by Keras's private `cast_if_floating_dtype` in a `Lambda`.
Report: public code (rail-berkeley/softlearning, `softlearning/models/feedforward.py` before `cast_and_concat`): `training_utils.cast_if_floating_dtype(inputs)`"""
import tensorflow as tf
from tensorflow.python.keras.engine import training_utils

observations = tf.keras.Input((3,))
actions = tf.keras.Input((2,), dtype=tf.float64)
float_inputs = tf.keras.layers.Lambda(
    lambda inputs: training_utils.cast_if_floating_dtype(inputs)
)([observations, actions])
concatenated = tf.keras.layers.Lambda(lambda inputs: tf.concat(inputs, axis=-1))(float_inputs)
q_value = tf.keras.layers.Dense(1)(concatenated)
model = tf.keras.Model([observations, actions], q_value)
print(model([tf.ones((1, 3)), tf.ones((1, 2), tf.float64)]).shape)
print("OK")
