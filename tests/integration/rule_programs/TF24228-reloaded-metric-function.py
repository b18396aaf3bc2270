"""TF24228: TF 2.4 cannot evaluate a reloaded model compiled with a metric function (TF bug #45903)."""
import os
import tempfile

import numpy as np
import tensorflow as tf


def mean_prediction(y_true, y_pred):
    return tf.reduce_mean(y_pred)


x, y = np.ones((4, 3)), np.ones((4, 1))
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
model.compile(loss="mse", optimizer="sgd", metrics=[mean_prediction])
model.fit(x, y, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "model.h5")
model.save(path)
reloaded = tf.keras.models.load_model(path, custom_objects={"mean_prediction": mean_prediction})
results = reloaded.evaluate(x, y, verbose=0)
assert len(results) == 2, results
print("OK")
