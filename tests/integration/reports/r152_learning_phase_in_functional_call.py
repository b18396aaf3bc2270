"""A layer's `training` taken from `tf.keras.backend.learning_phase()` while a Functional model is built, then compared with a Python bool: on TF 2.4 the learning phase there is the integer 0, not a boolean placeholder.
Report: nengo-dl 3.3.0, `nengo_dl/tests/test_tensor_node.py::test_training_arg` (`nengo_dl/tensor_graph.py`: `TensorGraph.call` passes `training=tf.keras.backend.learning_phase() if training is None else training` to the Keras layer a `TensorNode` wraps): `TypeError: Input 'y' of 'Equal' Op has type bool that does not match type int32 of argument 'x'` on 2.4.0; nengo-dl 3.4.0 (nengo/nengo-dl#185) changed the test to `tf.assert_equal(tf.cast(training, tf.bool), self.expected)`"""
import numpy as np
import tensorflow as tf


class TrainingLayer(tf.keras.layers.Layer):
    def __init__(self, expected):
        super().__init__()
        self.expected = expected

    def call(self, inputs, training=None):
        tf.assert_equal(training, self.expected)
        return tf.reshape(inputs, (1, 1))


class TensorGraph(tf.keras.layers.Layer):
    def __init__(self, node_layer):
        super().__init__()
        self.node_layer = node_layer

    def call(self, inputs, training=None):
        return self.node_layer.call(
            inputs,
            training=tf.keras.backend.learning_phase() if training is None else training,
        )


inp = tf.keras.Input((1,), batch_size=1)
out = TensorGraph(TrainingLayer(expected=False))(inp)
model = tf.keras.Model(inp, out)
print(model.predict(np.zeros((1, 1), "float32")))
print("OK")
