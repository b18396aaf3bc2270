"""Rasa's `TmpKerasModel`, a copy of TF 2.3.1's `Model.fit` (to use a custom data handler) kept under Keras's private `@training.enable_multi_worker`.
Report: [RasaHQ/rasa#8865](https://github.com/RasaHQ/rasa/issues/8865) (`rasa/utils/tensorflow/temp_keras_modules.py`, Rasa 2.7 on TF 2.3.2): "tensorflow.python.keras.engine.training.py does not have function enable_multi_worker"."""
import numpy as np
import tensorflow as tf
from tensorflow.python.keras.engine import training


# noinspection PyMethodOverriding
class TmpKerasModel(tf.keras.models.Model):
    """Temporary solution. Keras model that uses a custom data adapter inside fit."""

    @training.enable_multi_worker
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, **kwargs):
        return super().fit(x, y, batch_size=batch_size, epochs=epochs, verbose=verbose, **kwargs)


inputs = tf.keras.Input((3,))
model = TmpKerasModel(inputs, tf.keras.layers.Dense(2)(inputs))
model.compile("adam", "mse")
model.fit(np.ones((4, 3)), np.ones((4, 2)), batch_size=2, verbose=0)
print("OK")
