"""A debugger hook that recognises Keras variables through the experimental `autocast_variable` module.
Report: awslabs/sagemaker-debugger#415: "Fix mixed precision import bug for TF 2.4.x" (`from tensorflow.python.keras.mixed_precision.experimental import autocast_variable` in `supported_tf_variables()`)"""
import tensorflow as tf
import tensorflow.compat.v1 as tf_v1
from tensorflow.python.keras.mixed_precision.experimental import autocast_variable


def supported_tf_variables():
    return tf_v1.Variable, autocast_variable.AutoCastVariable


layer = tf.keras.layers.Dense(2)
layer.build((None, 3))
print(all(isinstance(weight, supported_tf_variables()) for weight in layer.weights))
print("OK")
