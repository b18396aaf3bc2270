"""The Keras backend reached as an attribute chain through tf.python.
Report: https://github.com/ehsanhaghighat/sciann-applications/issues/15"""
import tensorflow as tf

K = tf.python.keras.backend
assert K.floatx() == "float32"
print("OK")
