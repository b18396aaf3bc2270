"""TF24219: TF 2.4's `Model.fit` passes `tape=` to an optimizer's `minimize` (here a mixin's)."""
# breaks in TF's call of: minimize
import tensorflow as tf


class CountingMinimize:
    def minimize(self, loss, var_list, grad_loss=None, name=None):
        self.steps = getattr(self, "steps", 0) + 1
        return super().minimize(loss, var_list, grad_loss=grad_loss, name=name)


class CountingSGD(CountingMinimize, tf.keras.optimizers.SGD):
    pass


model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
optimizer = CountingSGD(0.1)
model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
# TF 2.3's `fit` does not call `minimize` at all; a direct call reaches the override
weight = tf.Variable(1.0)
optimizer.minimize(lambda: 4.0 * weight, [weight])
assert optimizer.steps == 1, optimizer.steps
print("OK")
