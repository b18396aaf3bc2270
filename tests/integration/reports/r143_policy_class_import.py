"""A model module that imports `Policy` from Keras's private `mixed_precision.experimental.policy` module.
Report: public code ([yotaro-shimose/DMDP](https://github.com/yotaro-shimose/DMDP), `dmdp/modules/models/network.py`): `from tensorflow.python.keras.mixed_precision.experimental.policy import Policy`"""
from tensorflow.python.keras.mixed_precision.experimental.policy import Policy

import tensorflow as tf


class GraphAttentionNetwork(tf.keras.models.Model):
    def __init__(self, d_model):
        super().__init__()
        self.encoder = tf.keras.layers.Dense(d_model)
        self.decoder = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.decoder(self.encoder(inputs))


print(Policy("float32").name)
print(GraphAttentionNetwork(4)(tf.ones((2, 3))).shape)
print("OK")
