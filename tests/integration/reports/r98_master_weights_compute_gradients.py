"""A float16 optimizer keeping float32 master weights, whose `_compute_gradients` follows TF 2.2's signature (no `tape`).
Report: public code (an fp16 optimizer with float32 master copies, after TF 2.2's LossScaleOptimizer): `def _compute_gradients(self, loss, var_list, grad_loss=None):`"""
import tensorflow as tf


class MasterWeightsAdam(tf.keras.optimizers.Adam):
    def _compute_gradients(self, loss, var_list, grad_loss=None):
        with tf.GradientTape() as tape:
            tape.watch(var_list)
            value = loss()
        grads = tape.gradient(value, var_list, grad_loss)
        return [(tf.cast(g, tf.float32), v) for g, v in zip(grads, var_list)]


variable = tf.Variable(2.0)
MasterWeightsAdam(0.1).minimize(lambda: variable * variable, [variable])
print(variable.numpy())
print("OK")
