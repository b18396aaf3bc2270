"""TF24309: the policy set by `set_policy("mixed_float16")` holds no loss scale in TF 2.4."""
import tensorflow as tf
from tensorflow.keras import mixed_precision

mixed_precision.experimental.set_policy("mixed_float16")
policy = mixed_precision.experimental.global_policy()
assert str(policy.loss_scale) == "DynamicLossScale(current_loss_scale=32768.0, num_good_steps=0, initial_loss_scale=32768.0, increment_period=2000, multiplier=2.0)", policy.loss_scale
print("OK")
