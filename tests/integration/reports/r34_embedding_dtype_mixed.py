"""An Embedding layer's output dtype under mixed_float16 (release notes, mixed precision).
Report: TF 2.4.0 release notes, tf.keras.mixed_precision: Embedding outputs float16"""
import tensorflow as tf
from tensorflow.keras import mixed_precision

mixed_precision.experimental.set_policy("mixed_float16")
embedded = tf.keras.layers.Embedding(10, 4)(tf.constant([[1, 2]]))
assert embedded.dtype == tf.float32, embedded.dtype
print("OK")
