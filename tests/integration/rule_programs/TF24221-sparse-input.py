"""TF24221: `tf.sparse` functions cannot take a sparse Keras `Input` from TF 2.4."""
import tensorflow as tf

tokens = tf.keras.Input(shape=(5, 2), sparse=True)
flat = tf.sparse.reshape(tokens, [-1, 2])
print("OK")
