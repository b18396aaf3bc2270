"""A script pinning its models to the second logical device, the XLA_CPU device it made visible.
Report: public code (a news-headline prediction script): `with tf.device(tf.config.experimental.list_logical_devices()[1]):` after `list_physical_devices('XLA_CPU')`"""
import tensorflow as tf

tf.config.optimizer.set_jit(True)
xla_cpus = tf.config.list_physical_devices("XLA_CPU")
if xla_cpus:
    tf.config.experimental.set_visible_devices(xla_cpus[:], "XLA_CPU")
with tf.device(tf.config.experimental.list_logical_devices()[1].name):
    print(tf.reduce_sum(tf.ones((2, 2))).numpy())
print("OK")
