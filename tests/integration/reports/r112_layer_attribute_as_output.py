"""A sub-model whose output is a tensor a layer stored on itself in `call` (an attention map).
Report: CyberZHG/keras-bert#218: "Error in getting attention map" (`outputs = model.get_layer('Encoder-1-MultiHeadSelfAttention').attention`: "Output tensors of a Functional model must be the output of a TensorFlow `Layer`")"""
import numpy as np
import tensorflow as tf


class SelfAttention(tf.keras.layers.Layer):
    def call(self, inputs):
        scores = tf.matmul(inputs, inputs, transpose_b=True)
        self.attention = tf.nn.softmax(scores)
        return tf.matmul(self.attention, inputs)


inputs = tf.keras.Input((5, 3))
outputs = SelfAttention(name="Encoder-1-MultiHeadSelfAttention")(inputs)
model = tf.keras.Model(inputs, outputs)

attention_model = tf.keras.Model(model.inputs, model.get_layer("Encoder-1-MultiHeadSelfAttention").attention)
print(attention_model.predict(np.ones((1, 5, 3))).shape)
print("OK")
