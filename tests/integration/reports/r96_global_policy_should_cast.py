"""An agent's optimizer that wraps itself in a LossScaleOptimizer when the global policy casts variables.
Report: public code (a Dreamer-style agent's `Optimizer(tf.Module)`): `if prec.global_policy().should_cast_variables:`"""
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as prec


class Optimizer(tf.Module):
    def __init__(self, lr):
        self._opt = tf.keras.optimizers.Adam(lr)
        if prec.global_policy().should_cast_variables:
            self._opt = prec.LossScaleOptimizer(self._opt, "dynamic")

    def __call__(self, tape, loss, variables):
        grads = tape.gradient(loss, variables)
        self._opt.apply_gradients(zip(grads, variables))


variable = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = variable * variable
Optimizer(0.1)(tape, loss, [variable])
print("OK")
