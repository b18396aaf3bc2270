"""TF24302: `set_policy` is `set_global_policy` in TF 2.4; the experimental one still works."""
import tensorflow as tf
from tensorflow.keras import mixed_precision

mixed_precision.experimental.set_policy("mixed_float16")
assert tf.keras.layers.Dense(1)(tf.ones((1, 1))).dtype == tf.float16
print("OK")
