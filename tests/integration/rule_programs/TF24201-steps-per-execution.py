"""TF24201: `Model.compile(steps_per_execution=)` is new in TF 2.4; the experimental keyword works."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
model.compile(optimizer="sgd", loss="mse", experimental_steps_per_execution=2)
model.fit(np.ones((8, 2)), np.ones((8, 1)), batch_size=4, epochs=1, verbose=0)
print("OK")
