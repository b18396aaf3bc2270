"""An optimizer subclass whose `_aggregate_gradients` returns gradients only (TF 2.3's contract).
Report: horovod/horovod#2178: from TF 2.4, `_aggregate_gradients` returns (gradient, variable) pairs"""
import tensorflow as tf


class AllReduceSGD(tf.keras.optimizers.SGD):
    def _aggregate_gradients(self, grads_and_vars):
        return [grad for grad, _ in grads_and_vars]


variable = tf.Variable(1.0)
AllReduceSGD(0.1).apply_gradients([(tf.constant(1.0), variable)])
assert abs(variable.numpy() - 0.9) < 1e-6
print("OK")
