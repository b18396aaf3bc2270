"""The current loss scale of a LossScaleOptimizer read by calling loss_scale().
Report: https://github.com/aws-samples/deep-learning-models/issues/44"""
import tensorflow as tf

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.Adam(), "dynamic")
loss_scale = optimizer.loss_scale()
assert float(loss_scale) == 32768.0
print("OK")
