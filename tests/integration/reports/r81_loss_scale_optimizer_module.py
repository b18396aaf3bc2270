"""A `train_step` that scales the loss when the optimizer is the experimental LossScaleOptimizer, tested through its module.
Report: public code (a context-switching Keras model's `_minimize`): `from tensorflow.python.keras.mixed_precision.experimental import loss_scale_optimizer as lso`"""
import tensorflow as tf
from tensorflow.python.keras.mixed_precision.experimental import loss_scale_optimizer as lso

optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(tf.keras.optimizers.SGD(), "dynamic")
variable = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = variable * 2.0
    if isinstance(optimizer, lso.LossScaleOptimizer):
        loss = optimizer.get_scaled_loss(loss)
gradients = tape.gradient(loss, [variable])
if isinstance(optimizer, lso.LossScaleOptimizer):
    gradients = optimizer.get_unscaled_gradients(gradients)
optimizer.apply_gradients(zip(gradients, [variable]))
print("OK")
