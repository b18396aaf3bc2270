"""TF24305: the stable `LossScaleOptimizer` of TF 2.4 takes `dynamic=` and `initial_scale=`."""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), 128)
assert float(optimizer.get_scaled_loss(tf.constant(1.0))) == 128.0
print("OK")
