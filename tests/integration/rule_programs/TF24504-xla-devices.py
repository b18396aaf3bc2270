"""TF24504: TF 2.4 no longer registers the XLA_CPU and XLA_GPU devices by default."""
import tensorflow as tf

with tf.device("/device:XLA_CPU:0"): assert "XLA_CPU" in tf.reduce_sum(tf.ones((4,))).device  # fmt: skip
print("OK")
