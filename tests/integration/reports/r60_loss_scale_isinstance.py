"""The kind of a LossScaleOptimizer's `loss_scale` tested with isinstance.
Report: TF 2.4.0 release notes, mixed precision: `LossScaleOptimizer.loss_scale` is a tensor"""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
assert isinstance(optimizer.loss_scale, tf.mixed_precision.experimental.DynamicLossScale)
print("OK")
