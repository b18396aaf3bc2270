"""Layer.add_weight given every argument positionally: TF 2.4 dropped `partitioner`.
Report: the TF 2.3.0 and 2.4.0 wheels (`add_weight`'s signature)"""
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(
            "w", (1,), None, "ones", None, False, None, None, None,
            tf.VariableSynchronization.ON_READ, tf.VariableAggregation.MEAN,
        )

    def call(self, x):
        return x * self.w


layer = Scale()
layer(tf.ones((1, 1)))
print("OK")
