"""TF24216: an attribute of a graph tensor that a `KerasTensor` lacks (the releases' list)."""
import tensorflow as tf

inputs = tf.keras.Input((3,))
hidden = tf.keras.layers.Dense(2)(inputs)
assert hidden._shape_as_list() == [None, 2], hidden._shape_as_list()
print("OK")
