"""An LSTM given `implementation` and the arguments after it positionally: TF 2.4 took `implementation` out of the signature.
Report: the TF 2.3.0 and 2.4.0 wheels (`LSTM`'s signature; `implementation` read from `**kwargs`)"""
import tensorflow as tf

layer = tf.keras.layers.LSTM(
    4, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True,
    None, None, None, None, None, None, None, 0.0, 0.0, 2, True,
)
print(layer(tf.ones((1, 3, 2))).shape)
print("OK")
