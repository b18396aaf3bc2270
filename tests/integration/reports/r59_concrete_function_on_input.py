"""`get_concrete_function` called on a Keras input.
Report: TF 2.4.0 release notes, Functional API: build a TensorSpec instead of passing Keras inputs"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
concrete = tf.function(model).get_concrete_function(inputs)
print("OK")
