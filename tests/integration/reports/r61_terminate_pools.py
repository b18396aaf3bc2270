"""`terminate_keras_multiprocessing_pools` after a multiprocessing fit.
Report: TF 2.4.0 API (wheels' diff): tf.keras.experimental.terminate_keras_multiprocessing_pools is gone"""
import tensorflow as tf

tf.keras.experimental.terminate_keras_multiprocessing_pools()
print("OK")
