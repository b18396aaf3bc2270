"""TF24218: a `Lambda`'s function cannot use another Keras input from TF 2.4."""
import tensorflow as tf

latent = tf.keras.Input((4,))
trunc = tf.keras.Input((1,))
style = tf.keras.layers.Lambda(lambda x: x * trunc)(latent)
print("OK")
