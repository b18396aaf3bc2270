"""A weight-decay mixin for Keras optimizers that overrides `minimize` without the `tape` that TF 2.4's `fit` passes.
Report: public code (tensorflow/addons, `tensorflow_addons/optimizers/weight_decay_optimizers.py`, TF 2.3 era): `DecoupledWeightDecayExtension.minimize(self, loss, var_list, grad_loss=None, name=None, decay_var_list=None)`"""
import tensorflow as tf


class DecoupledWeightDecayExtension:
    def __init__(self, weight_decay, **kwargs):
        super().__init__(**kwargs)
        self._decay_var_list = None
        self._set_hyper("weight_decay", weight_decay)

    def minimize(self, loss, var_list, grad_loss=None, name=None, decay_var_list=None):
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().minimize(loss, var_list=var_list, grad_loss=grad_loss, name=name)


class AdamW(DecoupledWeightDecayExtension, tf.keras.optimizers.Adam):
    def __init__(self, weight_decay, learning_rate=0.001, name="AdamW", **kwargs):
        super().__init__(weight_decay, learning_rate=learning_rate, name=name, **kwargs)


model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
model.compile(optimizer=AdamW(weight_decay=1e-4), loss="mse")
model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
print("OK")
