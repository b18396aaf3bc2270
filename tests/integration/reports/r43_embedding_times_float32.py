"""An Embedding's output multiplied by a float32 mask under mixed_float16.
Report: TF 2.4.0 release notes, mixed precision: Embedding outputs float16"""
import tensorflow as tf

tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
embedded = tf.keras.layers.Embedding(10, 4)(tf.constant([[1, 2]]))
masked = embedded * tf.ones((1, 2, 1), dtype=tf.float32)
print("OK")
