"""TF24313: inside `call`, a layer variable's `.dtype` is float32 under mixed_float16 from TF 2.4."""
import tensorflow as tf


class Bias(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.bias = self.add_weight("bias", shape=(input_shape[-1],), initializer="zeros")

    def call(self, x):
        return x + tf.ones(tf.shape(x), dtype=self.bias.dtype) * self.bias


tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
print(Bias()(tf.ones((2, 3))))
print("OK")
