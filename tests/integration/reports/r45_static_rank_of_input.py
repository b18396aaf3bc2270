"""The static value of the rank of a Keras input.
Report: TF 2.4.0 release notes, Functional API: values like tf.rank of symbolic inputs are symbolic"""
import tensorflow as tf

inputs = tf.keras.Input((3, 4))
rank = tf.get_static_value(tf.rank(inputs))
assert rank == 3, rank
print("OK")
