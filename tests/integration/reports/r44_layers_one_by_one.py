"""A functional model's layers called one by one on new data.
Report: TF 2.4.0 release notes, Functional API: layers may take more than one positional argument"""
import tensorflow as tf

inputs = tf.keras.Input((3,))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs * 2.0))
x = tf.ones((1, 3))
for layer in model.layers[1:]:
    x = layer(x)
print("OK")
