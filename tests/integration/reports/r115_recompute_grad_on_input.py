"""A block of convolutions wrapped in `tf.recompute_grad` (gradient checkpointing) and called on Keras inputs.
Report: tensorflow/tensorflow#51131: "recompute_grad + keras: \"TypeError: Cannot convert a symbolic Keras input/output to a numpy array.\"\""""
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Conv2D, Input
from tensorflow.keras.models import Model


def block(x):
    x = Conv2D(filters=4, kernel_size=(3, 3))(x)
    x = Conv2D(filters=4, kernel_size=(3, 3))(x)
    return x


block = tf.recompute_grad(block)

inputs = Input(shape=(16, 16, 3))
block_1 = block(inputs)
block_2 = block(block_1)
model = Model(inputs, block_2)
print(model.predict(np.ones((1, 16, 16, 3), np.float32)).shape)
print("OK")
