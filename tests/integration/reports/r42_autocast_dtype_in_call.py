"""Under mixed_float16, a tensor made with a variable's dtype inside `call`.
Report: TF 2.4.0 release notes, mixed precision: `AutoCastVariable.dtype` is the variable's dtype"""
import tensorflow as tf


class Shift(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight("w", shape=(), initializer="ones")

    def call(self, x):
        return x + tf.zeros(tf.shape(x), dtype=self.w.dtype)


tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
Shift()(tf.ones((2, 2)))
print("OK")
