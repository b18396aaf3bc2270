"""TF24214: a TF function that dispatches on Keras symbolic tensors, given them inside a structure
(found from the TF 2.4.0 wheel, run on TF 2.3.0): `tf.debugging.assert_shapes` of (tensor, shape)
pairs. TF 2.3 checked the graph tensor's static shape and went on; TF 2.4 hands the call to an op
layer, which turns the Python numbers of the shapes into tensors, and the check raises TypeError."""
import numpy as np
import tensorflow as tf

images = tf.keras.Input((8, 8, 3))
tf.debugging.assert_shapes([(images, ("N", 8, 8, 3))], message="images must be N x 8 x 8 x 3")
flipped = tf.image.flip_left_right(images)
model = tf.keras.Model(images, flipped)
assert model.predict(np.zeros((1, 8, 8, 3), "float32")).shape == (1, 8, 8, 3)
print("OK")
