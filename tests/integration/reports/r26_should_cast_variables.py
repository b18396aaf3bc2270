"""A layer that reads its policy's should_cast_variables (release notes, mixed precision).
Report: TF 2.4.0 release notes, tf.keras.mixed_precision: Policy.should_cast_variables removed"""
from tensorflow.keras import mixed_precision

policy = mixed_precision.experimental.Policy("mixed_float16")
if policy.should_cast_variables:
    print("variables are cast")
print("OK")
