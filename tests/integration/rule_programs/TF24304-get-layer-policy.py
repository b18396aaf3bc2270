"""TF24304: `get_layer_policy` becomes a layer's `dtype_policy` in TF 2.4."""
import tensorflow as tf
from tensorflow.keras import mixed_precision

layer = tf.keras.layers.Dense(1, dtype="float64")
policy = mixed_precision.experimental.get_layer_policy(layer)
assert policy.name == "float64"
print("OK")
