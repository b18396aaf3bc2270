"""TF24220: `tf.get_static_value(tf.rank(inputs))` of a Keras input is None from TF 2.4."""
import tensorflow as tf

images = tf.keras.Input((28, 28, 1))
assert tf.get_static_value(tf.rank(images)) == 4
print("OK")
