"""A trained model's optimizer saved with `pickle` next to the model, as ivis's `save_model` did.
Report: [beringresearch/ivis#83](https://github.com/beringresearch/ivis/issues/83): "model_save: optimizer is not compatible with pickle" (`pkl.dump(self.model_.optimizer, f)`; "works under `tensorflow==2.3.0`")"""
import os
import pickle
import tempfile

import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,))])
model.compile(optimizer="adam", loss="mse")
model.fit(np.ones((8, 4)), np.ones((8, 2)), verbose=0)

folder = tempfile.mkdtemp()
with open(os.path.join(folder, "optimizer.pkl"), "wb") as f:
    pickle.dump(model.optimizer, f)
print("OK")
