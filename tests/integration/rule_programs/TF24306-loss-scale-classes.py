"""TF24306: the `LossScale` classes move to `tf.compat.v1.mixed_precision` in TF 2.4."""
import tensorflow as tf

loss_scale = tf.mixed_precision.experimental.DynamicLossScale(initial_loss_scale=1024)
assert float(loss_scale()) == 1024.0
print("OK")
