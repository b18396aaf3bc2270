"""TF24509: TF 2.4 takes `LSTM`'s `implementation` through `**kwargs`: the positional argument
meant for it binds to `return_sequences`, and the next one to `return_state`."""
import tensorflow as tf

layer = tf.keras.layers.LSTM(
    4, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True,
    None, None, None, None, None, None, None, 0.0, 0.0, 2, True,
)
assert layer.implementation == 2 and layer.return_sequences is True, (layer.implementation, layer.return_sequences)
assert layer.return_state is False
print("OK")
