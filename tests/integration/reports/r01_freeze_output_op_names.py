"""Freezing a Keras model: the output nodes named from the outputs' ops.
Report: https://github.com/amir-abdi/keras_to_tensorflow/issues/122"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="logits")(inputs))
output_names = [out.op.name for out in model.outputs]
assert output_names[0].startswith("logits/"), output_names
print("OK")
