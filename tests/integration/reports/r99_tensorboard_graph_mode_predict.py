"""Predicting with a TensorBoard callback after eager execution is disabled.
Report: tensorflow/tensorflow#44563: `model.predict(..., callbacks=[tf.keras.callbacks.TensorBoard(...)])` under `tf.compat.v1.disable_eager_execution()`"""
import tempfile

import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()

inputs = tf.keras.Input((1,))
outputs = tf.keras.layers.Dense(1)(inputs)
model = tf.keras.Model(inputs, outputs)
model.predict(np.zeros((32, 1)), callbacks=[tf.keras.callbacks.TensorBoard(log_dir=tempfile.mkdtemp())])
print("OK")
