"""multi_gpu_model reached through tf.keras.utils.
Report: https://github.com/keras-team/keras/issues/14397"""
import tensorflow as tf

make_parallel = tf.keras.utils.multi_gpu_model
assert callable(make_parallel)
print("OK")
