"""TF24312: under mixed_float16, an Embedding's output is float16 from TF 2.4 and cannot be
multiplied by a float32 tensor."""
import tensorflow as tf

tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
vectors = tf.keras.layers.Embedding(20, 8)(tf.constant([[3, 4, 5]]))
weighted = vectors * tf.constant([[[0.5], [1.0], [2.0]]], dtype=tf.float32)
print("OK")
