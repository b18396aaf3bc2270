"""An optimizer subclass overriding `_compute_gradients` without TF 2.4's `tape` argument.
Report: TF 2.4.0 release notes, tf.keras: `Optimizer.minimize` takes a `tape`, passed to `_compute_gradients`"""
import tensorflow as tf


class ClippedSGD(tf.keras.optimizers.SGD):
    def _compute_gradients(self, loss, var_list, grad_loss=None):
        grads_and_vars = super()._compute_gradients(loss, var_list, grad_loss)
        return [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in grads_and_vars]


variable = tf.Variable(3.0)
ClippedSGD(0.1).minimize(lambda: variable * variable, [variable])
assert abs(variable.numpy() - 2.9) < 1e-6
print("OK")
