"""A training step run on a OneDeviceStrategy with experimental_run_v2.
Report: https://github.com/intel/dffml/issues/953"""
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")


def step(x):
    return x * 2.0


result = strategy.experimental_run_v2(step, args=(tf.constant(3.0),))
assert float(result) == 6.0
print("OK")
