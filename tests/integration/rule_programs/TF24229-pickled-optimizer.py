"""TF24229: TF 2.4's Keras optimizers hold local functions, which `pickle` cannot save; TF 2.3's
pickle."""
import pickle

import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])
model.compile(optimizer="adam", loss="mse")
model.fit(tf.ones((2, 4)), tf.ones((2, 2)), verbose=0)
data = pickle.dumps(model.optimizer)
assert type(pickle.loads(data)).__name__ == "Adam"
print("OK")
