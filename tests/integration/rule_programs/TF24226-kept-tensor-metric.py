"""TF24226: a tensor a custom layer keeps on itself in `call` cannot be a model's metric from TF 2.4."""
import numpy as np
import tensorflow as tf


class Gate(tf.keras.layers.Layer):
    def call(self, inputs):
        self.gates = tf.sigmoid(inputs)
        return inputs * self.gates


inputs = tf.keras.Input((4,))
gate = Gate()
model = tf.keras.Model(inputs, gate(inputs))
model.add_metric(gate.gates, name="gates", aggregation="mean")
model.compile("sgd", "mse")
history = model.fit(np.ones((2, 4)), np.ones((2, 4)), verbose=0)
assert "gates" in history.history
print("OK")
