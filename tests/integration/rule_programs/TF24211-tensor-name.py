"""TF24211: Keras symbolic tensors' names have no `:0` from TF 2.4."""
import tensorflow as tf

inputs = tf.keras.Input((3,), name="features")
assert inputs.name == "features:0", inputs.name
print("OK")
