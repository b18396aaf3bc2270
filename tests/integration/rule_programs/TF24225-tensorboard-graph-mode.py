"""TF24225: with eager execution off, `evaluate` fails on a `TensorBoard` callback from TF 2.4."""
# harness: fresh
import tempfile

import numpy as np
import tensorflow as tf

tf.compat.v1.disable_eager_execution()

inputs = tf.keras.Input((1,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
model.compile("sgd", "mse")
board = tf.keras.callbacks.TensorBoard(log_dir=tempfile.mkdtemp())
model.fit(np.zeros((8, 1)), np.zeros((8, 1)), verbose=0, callbacks=[board])
model.evaluate(np.zeros((8, 1)), np.zeros((8, 1)), verbose=0, callbacks=[board])
print("OK")
