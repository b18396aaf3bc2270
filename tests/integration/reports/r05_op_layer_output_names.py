"""A TF op named with `name=` as the last layer of a functional model, read back from output_names.
Report: https://github.com/tensorflow/tensorflow/issues/45401"""
import tensorflow as tf

inputs = tf.keras.Input(shape=(1,), name="input_layer")
outputs = tf.identity(inputs, name="test_layer")
model = tf.keras.Model(inputs, outputs)
assert model.output_names == ["tf_op_layer_test_layer"], model.output_names
print("OK")
