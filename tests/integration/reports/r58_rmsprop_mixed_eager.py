"""RMSprop wrapped in a LossScaleOptimizer, applied eagerly to a mixed-precision layer.
Report: tensorflow/tensorflow#45536: RMSprop fails if using mixed precision training and eager functions"""
import tensorflow as tf

tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
layer = tf.keras.layers.Dense(2)
layer(tf.ones((1, 2)))
optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.RMSprop(), "dynamic")
optimizer.apply_gradients(zip([tf.ones_like(v) for v in layer.trainable_variables], layer.trainable_variables))
print("OK")
