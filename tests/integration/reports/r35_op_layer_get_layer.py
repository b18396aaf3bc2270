"""An auto-generated op layer looked up by name (release notes, Keras).
Report: TF 2.4.0 release notes, Functional API: names and number of op layers"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
outputs = tf.nn.relu(inputs, name="activation")
model = tf.keras.Model(inputs, outputs)
layer = model.get_layer("tf_op_layer_activation")
print("OK")
