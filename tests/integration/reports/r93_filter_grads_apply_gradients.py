"""A second-order optimizer whose `apply_gradients`, copied from TF 2.2, filters gradients with Keras's private `_filter_grads`.
Report: public code (EHNewtonOptimizer, a CG-approximated Newton optimizer): `grads_and_vars = optimizer_v2._filter_grads(grads_and_vars)`"""
import tensorflow as tf
from tensorflow.python.keras.optimizer_v2 import optimizer_v2


class NewtonOptimizer(tf.keras.optimizers.SGD):
    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True):
        grads_and_vars = optimizer_v2._filter_grads(grads_and_vars)
        return super().apply_gradients(grads_and_vars, name, experimental_aggregate_gradients)


variable = tf.Variable(1.0)
NewtonOptimizer(0.1).apply_gradients([(tf.constant(1.0), variable)])
print(variable.numpy())
print("OK")
