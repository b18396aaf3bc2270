"""TF24214: `K.moving_average_update` of a Keras symbolic value raises from TF 2.4: it makes an op
layer of `(x - value) * momentum`, then assigns it. `K` is the backend module by assignment."""
import tensorflow as tf

K = tf.keras.backend
inputs = tf.keras.Input((3,), batch_size=2)
moving = K.variable(tf.zeros((2, 3)), name="moving")
update = K.moving_average_update(moving, inputs, 0.9)
assert update is not None
print("OK")
