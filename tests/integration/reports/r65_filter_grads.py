"""OptimizerV2's private `_filter_grads`, used by a custom optimizer.
Report: TF 2.4.0 API (wheels' diff): optimizer_v2._filter_grads"""
import tensorflow as tf
from tensorflow.python.keras.optimizer_v2 import optimizer_v2

print(optimizer_v2._filter_grads([(tf.constant(1.0), tf.Variable(1.0))]))
print("OK")
