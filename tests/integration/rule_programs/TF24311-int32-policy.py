"""TF24311: TF 2.4 refuses a global policy that is not floating point."""
import tensorflow as tf

tf.keras.mixed_precision.experimental.set_policy("int32")
assert tf.keras.mixed_precision.experimental.global_policy().name == "int32"
print("OK")
