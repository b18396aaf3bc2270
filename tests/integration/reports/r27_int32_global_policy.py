"""An integer global policy (release notes, mixed precision).
Report: TF 2.4.0 release notes, tf.keras.mixed_precision: set_policy refuses non-floating policies"""
import tensorflow as tf

tf.keras.mixed_precision.experimental.set_policy("int32")
assert tf.keras.mixed_precision.experimental.global_policy().name == "int32"
print("OK")
