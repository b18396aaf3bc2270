"""A Lambda layer that multiplies by a value computed from another Keras input.
Report: https://github.com/manicman1999/StyleGAN-Tensorflow-2.0/issues/2"""
import tensorflow as tf
from tensorflow.keras.layers import Dense, Input, Lambda

latent = Input((4,))
trunc = Input((1,))
style = Dense(4)(latent)
style = Lambda(lambda x: x * trunc)(style)
print("OK")
