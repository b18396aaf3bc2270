"""TF24202: Keras utilities deprecated in TF 2.3 are gone from TF 2.4."""
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
tf.keras.utils.convert_all_kernels_in_model(model)
print("OK")
