"""An optimizer wrapping another whose `_compute_gradients` delegates without TF 2.4's `tape`.
Report: public code (google-research/tensorflow_constrained_optimization, `ConstrainedOptimizerV2._compute_gradients(self, loss, var_list, grad_loss=None)`)"""
import tensorflow as tf


class WrappingOptimizer(tf.keras.optimizers.Optimizer):
    def __init__(self, optimizer, name="WrappingOptimizer"):
        super().__init__(name)
        self._optimizer = optimizer

    def _compute_gradients(self, loss, var_list, grad_loss=None):
        return self._optimizer._compute_gradients(loss, var_list, grad_loss)

    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True):
        return self._optimizer.apply_gradients(grads_and_vars)

    def get_config(self):
        return {"name": self._name}


variable = tf.Variable(3.0)
WrappingOptimizer(tf.keras.optimizers.SGD(0.1)).minimize(lambda: variable * variable, [variable])
print(variable.numpy())
print("OK")
