"""A TF 2.3 script that converts a model's kernels with `convert_all_kernels_in_model`.
Report: tensorflow/tensorflow#50941: "Where is convert_all_kernels_in_model in tensorflow 2.5.0?" (`from tensorflow.keras.utils import convert_all_kernels_in_model`, "old code written in tf 2.3.0")"""
import tensorflow as tf
from tensorflow.keras.utils import convert_all_kernels_in_model

model = tf.keras.Sequential([tf.keras.layers.Conv2D(2, 3, input_shape=(8, 8, 1))])
convert_all_kernels_in_model(model)
print("OK")
