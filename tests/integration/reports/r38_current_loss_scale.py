"""The private `_current_loss_scale` of a LossScaleOptimizer, read to log the scale.
Report: TF 2.4.0 release notes, mixed precision: `LossScaleOptimizer` was rewritten, `loss_scale` is a tensor"""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
print(float(optimizer.loss_scale._current_loss_scale))
print("OK")
