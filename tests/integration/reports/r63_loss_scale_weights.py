"""A DynamicLossScale's own variables read after training with the optimizer that was given it.
Report: TF 2.4.0 release notes, mixed precision: a loss scale's weights are copied, not shared"""
import tensorflow as tf

loss_scale = tf.mixed_precision.experimental.DynamicLossScale(initial_loss_scale=4.0, increment_period=1)
optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), loss_scale)
variable = tf.Variable(1.0)
optimizer.apply_gradients([(tf.constant(1.0), variable)])
assert float(loss_scale()) == 8.0, float(loss_scale())
print("OK")
