"""TF24101: `Strategy.experimental_run_v2` is gone in TF 2.4; `Strategy.run` exists since 2.2."""
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
result = strategy.experimental_run_v2(lambda: tf.constant(2.0))
assert float(result) == 2.0
print("OK")
