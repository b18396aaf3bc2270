"""The name given to a TF op on a Keras input shows in the symbolic tensor's name.
Report: https://github.com/tensorflow/tensorflow/issues/43840"""
import tensorflow as tf

test = tf.keras.Input((1,), name="input1")
test2 = tf.identity(test, name="abcd")
assert "abcd" in test2.name, test2.name
print("OK")
