"""TF24303: `global_policy` is stable in TF 2.4; the experimental one still works."""
import tensorflow as tf

policy = tf.keras.mixed_precision.experimental.global_policy()
assert policy.name == "float32"
print("OK")
