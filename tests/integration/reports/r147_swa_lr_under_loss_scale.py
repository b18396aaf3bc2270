"""A stochastic-weight-averaging optimizer wrapper under mixed precision, with `ReduceLROnPlateau`: on TF 2.4 the loss-scale optimizer no longer forwards `lr` to the wrapper's `lr` property.
Report: [tensorflow/addons#2332](https://github.com/tensorflow/addons/issues/2332): "Stocastic Weight Averaging doesn't work with Learning Rate scheduling and mixed precision" (TF 2.4, TFA 0.12; the wrapper below is TFA's `AveragedOptimizerWrapper`, `tensorflow_addons/optimizers/average_wrapper.py`, the base of its `SWA`, reduced to what matters here)"""
import numpy as np
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as mixed_precision


class AveragedOptimizerWrapper(tf.keras.optimizers.Optimizer):
    def __init__(self, optimizer, name="SWA", **kwargs):
        super().__init__(name, **kwargs)
        self._optimizer = optimizer

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        return self._optimizer.apply_gradients(grads_and_vars, name, **kwargs)

    @property
    def lr(self):
        return self._optimizer._get_hyper("learning_rate")

    @lr.setter
    def lr(self, lr):
        self._optimizer._set_hyper("learning_rate", lr)

    @property
    def learning_rate(self):
        return self._optimizer._get_hyper("learning_rate")

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        self._optimizer._set_hyper("learning_rate", learning_rate)

    def get_config(self):
        return {"optimizer": tf.keras.optimizers.serialize(self._optimizer)}


mixed_precision.set_policy(mixed_precision.Policy("mixed_float16"))

inputs = tf.keras.Input((8,))
outputs = tf.keras.layers.Dense(1, dtype="float32")(tf.keras.layers.Dense(4)(inputs))
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer=AveragedOptimizerWrapper(tf.keras.optimizers.SGD(0.01)), loss="mse")

lr_reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=0, verbose=0)
x_train, y_train = np.ones((16, 8), "float32"), np.ones((16, 1), "float32")
model.fit(x_train, y_train, epochs=2, verbose=0, callbacks=[lr_reduce])
print("OK")
