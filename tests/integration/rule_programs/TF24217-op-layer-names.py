"""TF24217: an op's `name=` no longer names its layer from TF 2.4."""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.nn.relu(inputs, name="activation"))
layer = model.get_layer("tf_op_layer_activation")
print("OK")
