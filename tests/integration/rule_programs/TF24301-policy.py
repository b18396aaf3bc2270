"""TF24301: `Policy` is stable in TF 2.4; the experimental one still works."""
import tensorflow as tf
from tensorflow.keras import mixed_precision

policy = mixed_precision.experimental.Policy("mixed_float16")
assert policy.compute_dtype == "float16" and policy.variable_dtype == "float32"
print("OK")
