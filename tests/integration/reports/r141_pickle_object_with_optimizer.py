"""A model class that saves itself with `pickle`, its Keras optimizer included.
Report: [NatLabRockies/phygnn#17](https://github.com/NatLabRockies/phygnn/pull/17): "phygnn save() to now save optimizer config dict instead of optimizer object which can no longer be pickled in tf2.4.0\""""
import os
import pickle
import tempfile

import tensorflow as tf


class PhysicsGuidedNeuralNetwork:
    def __init__(self, learning_rate=0.01):
        self._optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)
        self._layers = [tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)]
        self.history = None

    def save(self, fpath):
        with open(fpath, "wb") as f:
            pickle.dump(self, f)


model = PhysicsGuidedNeuralNetwork()
model.save(os.path.join(tempfile.mkdtemp(), "phygnn.pkl"))
print("OK")
