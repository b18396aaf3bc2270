"""TF24307: a `LossScaleOptimizer`'s `loss_scale` is a tensor in TF 2.4, not a callable."""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
scale = optimizer.loss_scale()
assert float(scale) == 2.0 ** 15
print("OK")
