"""A computation placed on the XLA_CPU device (release notes, TF core).
Report: TF 2.4.0 release notes, TF core: XLA devices not registered by default"""
import tensorflow as tf

assert tf.config.list_logical_devices("XLA_CPU"), "no XLA_CPU device"
print("OK")
