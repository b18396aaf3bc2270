"""TF24226: a tensor a custom layer keeps on itself in `call` (gates) is no model output from TF 2.4."""
import tensorflow as tf


class Gate(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight("w", shape=(input_shape[-1],))

    def call(self, inputs):
        self.gates = tf.sigmoid(inputs * self.w)
        return inputs * self.gates


inputs = tf.keras.Input((4,))
gate = Gate()
gated = gate(inputs)
gates_model = tf.keras.Model(inputs=inputs, outputs=[gated, gate.gates])
assert gates_model.predict(tf.ones((2, 4)))[1].shape == (2, 4)
print("OK")
