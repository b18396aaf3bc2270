"""TF24312: under a mixed policy, Embedding outputs float16 from TF 2.4 (float32 in TF 2.3)."""
import tensorflow as tf

tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
embedded = tf.keras.layers.Embedding(10, 4)(tf.constant([[1, 2]]))
assert embedded.dtype == tf.float32, embedded.dtype
print("OK")
