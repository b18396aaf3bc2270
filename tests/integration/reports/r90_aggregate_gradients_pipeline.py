"""A distributed optimizer made from any Keras optimizer class, whose `_aggregate_gradients` returns the gradients alone.
Report: public code (LYL232/Experiment-Distributed-Deep-Learning, `PipelineDistributedOptimizer._aggregate_gradients`): `grads, variables = list(zip(*grads_and_vars))`"""
import tensorflow as tf


def _back_propagate(grads):
    return [grad * 0.5 for grad in grads]


def _aggregate_gradients(self, grads_and_vars):
    grads, variables = list(zip(*grads_and_vars))
    return _back_propagate(grads)


def distributed(optimizer_class):
    return type(optimizer_class.__name__, (optimizer_class,), {"_aggregate_gradients": _aggregate_gradients})


variable = tf.Variable(1.0)
distributed(tf.keras.optimizers.SGD)(0.1).apply_gradients([(tf.constant(1.0), variable)])
print(variable.numpy())
print("OK")
