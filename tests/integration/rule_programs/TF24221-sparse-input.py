"""TF24221: `tf.sparse` functions cannot take a sparse Keras `Input` from TF 2.4."""
import tensorflow as tf

tokens = tf.keras.Input(shape=(5,), sparse=True)
dense = tf.sparse.to_dense(tokens)
model = tf.keras.Model(tokens, dense)
print("OK")
