"""TF24310: `Policy.should_cast_variables` is gone from TF 2.4."""
from tensorflow.keras import mixed_precision

policy = mixed_precision.experimental.Policy("mixed_float16")
assert policy.should_cast_variables
print("OK")
