"""A Keras input's name compared with its op name.
Report: TF 2.4.0 release notes, Functional API: symbolic tensor names have no `:0`"""
import tensorflow as tf

inputs = tf.keras.Input((3,), name="image")
assert inputs.name == "image:0", inputs.name
print("OK")
