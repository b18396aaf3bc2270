"""A dynamic loss scale's increment_period read from the optimizer: TF 2.4 gives a tensor.
Report: TF 2.4.0 release notes, mixed precision (`LossScaleOptimizer.loss_scale` is a tensor)"""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
print(optimizer.loss_scale.increment_period)
print("OK")
