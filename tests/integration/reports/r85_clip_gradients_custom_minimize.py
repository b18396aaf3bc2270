"""A copy of TF 2.2's `_minimize` in a custom `train_step`, clipping through the optimizer's private `_clip_gradients`.
Report: public code (a context-switching Keras model's `_minimize`): `gradients = optimizer._clip_gradients(gradients)`"""
import tensorflow as tf

optimizer = tf.keras.optimizers.SGD(clipnorm=1.0)
variable = tf.Variable([3.0, 4.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(variable * variable)
gradients = tape.gradient(loss, [variable])
gradients = optimizer._clip_gradients(gradients)
optimizer.apply_gradients(zip(gradients, [variable]))
print("OK")
