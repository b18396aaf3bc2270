"""TF24214: a function made by `tf.recompute_grad` does not dispatch on Keras symbolic tensors:
TF 2.3 made an op layer of it, TF 2.4 raises TypeError."""
import tensorflow as tf


def scale(x):
    return x * 2.0


checkpointed = tf.recompute_grad(scale)
inputs = tf.keras.Input((2,))
model = tf.keras.Model(inputs, checkpointed(inputs))
assert model(tf.ones((1, 2))).numpy().tolist() == [[2.0, 2.0]]
print("OK")
