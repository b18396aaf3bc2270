"""The loss scale's config read from a LossScaleOptimizer: TF 2.4 gives a tensor.
Report: TF 2.4.0 release notes, mixed precision (`LossScaleOptimizer.loss_scale` is a tensor)"""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
config = optimizer.loss_scale.get_config()
print(config["initial_loss_scale"])
print("OK")
