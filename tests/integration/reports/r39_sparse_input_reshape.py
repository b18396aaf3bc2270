"""`tf.sparse.reshape` of a sparse Keras `Input`.
Report: tensorflow/tensorflow#56696: tf.sparse.reshape cannot deal with tf.keras.Input(sparse=True)"""
import tensorflow as tf

inputs = tf.keras.Input(shape=(3, 4), sparse=True, dtype=tf.int64)
output = tf.sparse.reshape(inputs, [-1, 4])
print("OK")
