"""`tf.map_fn` applied straight to a Keras input with a fixed batch size.
Report: tensorflow/tensorflow#50694: `tf.map_fn(lambda x: x, tf.keras.layers.Input(shape=[1, 1, 3], batch_size=4, dtype=tf.double))`"""
import tensorflow as tf

inputs = tf.keras.layers.Input(shape=[1, 1, 3], batch_size=4, dtype=tf.double)
result = tf.map_fn(lambda x: x, inputs)
print(result.shape)
print("OK")
