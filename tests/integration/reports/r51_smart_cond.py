"""`smart_cond` reached through Keras's tf_utils.
Report: nengo/nengo-dl#189: module 'tensorflow.python.keras.utils.tf_utils' has no attribute 'smart_cond'"""
import tensorflow as tf
from tensorflow.python.keras.utils import tf_utils

print(tf_utils.smart_cond(True, lambda: tf.constant(1), lambda: tf.constant(2)))
print("OK")
