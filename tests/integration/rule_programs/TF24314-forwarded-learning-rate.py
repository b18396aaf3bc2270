"""TF24314: under `mixed_float16`, TF 2.4's `LossScaleOptimizer` no longer forwards `lr` to an
optimizer whose learning rate is a Python property; TF 2.3's did."""

import numpy as np
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as mixed_precision


class Lookahead(tf.keras.optimizers.Optimizer):
    """Steps with the optimizer it is given; its learning rate is that optimizer's."""

    def __init__(self, inner):
        super().__init__("Lookahead")
        self.inner = inner

    @property
    def lr(self):
        return self.inner.lr

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        return self.inner.apply_gradients(grads_and_vars, name, **kwargs)

    def get_config(self):
        return {"inner": self.inner.get_config()}


mixed_precision.set_policy("mixed_float16")
inputs = tf.keras.Input((8,))
outputs = tf.keras.layers.Dense(1, dtype="float32")(tf.keras.layers.Dense(4)(inputs))
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer=Lookahead(tf.keras.optimizers.SGD(0.1)), loss="mse")
schedule = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr / 2)
model.fit(np.ones((16, 8), "float32"), np.ones((16, 1), "float32"), epochs=2, verbose=0, callbacks=[schedule])
assert abs(tf.keras.backend.get_value(model.optimizer.lr) - 0.025) < 1e-6
print("OK")
