"""TF24219: TF 2.4's `minimize` passes `tape=` to an optimizer's `_compute_gradients`."""
# breaks in TF's call of: _compute_gradients
import tensorflow as tf


class HalvedGradients(tf.keras.optimizers.SGD):
    def _compute_gradients(self, loss, var_list, grad_loss=None):
        pairs = super()._compute_gradients(loss, var_list, grad_loss)
        return [(grad / 2.0, var) for grad, var in pairs]


weight = tf.Variable(1.0)
HalvedGradients(1.0).minimize(lambda: 4.0 * weight, [weight])
assert weight.numpy() == -1.0, weight.numpy()
print("OK")
