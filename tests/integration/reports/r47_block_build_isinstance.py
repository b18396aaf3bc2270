"""A block built on a Keras Input, its first output checked with isinstance.
Report: keras-team/autokeras: tests build blocks on `tf.keras.Input` and assert `tf.Tensor` outputs"""
import tensorflow as tf
from tensorflow.python.util import nest


class Block:
    def build(self, hp, inputs):
        return [tf.keras.layers.Dense(2)(inputs)]


outputs = Block().build(None, tf.keras.Input(shape=(32,)))
assert isinstance(nest.flatten(outputs)[0], tf.Tensor)
print("OK")
