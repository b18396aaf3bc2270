"""TF24226: a tensor a custom layer keeps on itself in `call` is no output of `K.function` from TF 2.4."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K


class Attention(tf.keras.layers.Layer):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def call(self, query):
        self.scores = tf.nn.softmax(tf.matmul(query, query, transpose_b=True) / self.temperature)
        return tf.matmul(self.scores, query)


query = tf.keras.Input((5, 3))
attention = Attention(temperature=2.0)
attended = attention(query)
scores_of = K.function([query], [attention.scores])
assert scores_of([np.zeros((2, 5, 3), "float32")])[0].shape == (2, 5, 5)
print("OK")
