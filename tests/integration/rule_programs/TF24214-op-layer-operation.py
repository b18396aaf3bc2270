"""TF24214: a TF function that dispatches on Keras symbolic tensors but returns an Operation (an
assertion, found from the TF 2.4.0 wheel and run on TF 2.3.0): TF 2.3 ran it on the graph tensor,
TF 2.4 hands it to an op layer, whose Operation Keras cannot wrap ("Could not build a TypeSpec")."""
import numpy as np
import tensorflow as tf

images = tf.keras.Input((8, 8, 3))
with tf.control_dependencies([tf.debugging.assert_rank(images, 4, message="images must be 4-D")]):
    flipped = tf.image.flip_left_right(images)
model = tf.keras.Model(images, flipped)
assert model.predict(np.zeros((1, 8, 8, 3), "float32")).shape == (1, 8, 8, 3)
print("OK")
