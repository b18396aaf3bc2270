"""TF24226: a layer called inside a custom layer's `call` has no `output` from TF 2.4."""
import tensorflow as tf


class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.conv_1 = tf.keras.layers.Conv2D(4, 3)

    def call(self, inputs):
        return self.conv_1(inputs)


x = tf.keras.Input(shape=(8, 8, 3))
block = Block()
y = block(x)
assert block.conv_1.output.shape[-1] == 4
print("OK")
