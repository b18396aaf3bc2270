"""A DynamicLossScale given to a LossScaleOptimizer, then updated by hand.
Report: TF 2.4.0 release notes, mixed precision: the loss scale's weights are copied into the optimizer"""
import tensorflow as tf

loss_scale = tf.mixed_precision.experimental.DynamicLossScale(initial_loss_scale=8, increment_period=1)
optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), loss_scale)
loss_scale.update([tf.constant(1.0)])
assert float(optimizer.loss_scale()) == 16.0, float(optimizer.loss_scale())
print("OK")
