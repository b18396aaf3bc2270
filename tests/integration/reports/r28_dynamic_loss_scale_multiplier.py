"""A dynamic loss scale that grows fourfold (release notes, mixed precision).
Report: TF 2.4.0 release notes, tf.keras.mixed_precision: DynamicLossScale multiplier must be 2"""
import tensorflow as tf

loss_scale = tf.mixed_precision.experimental.DynamicLossScale(initial_loss_scale=1024, multiplier=4)
optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), loss_scale)
assert float(optimizer.get_scaled_loss(tf.constant(1.0))) == 1024.0
print("OK")
