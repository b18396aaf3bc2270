"""TF24106: `Strategy.experimental_make_numpy_dataset` is gone in TF 2.4."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
features = np.arange(6, dtype=np.float32)
dataset = strategy.experimental_make_numpy_dataset(features).batch(3)
assert [float(tf.reduce_sum(batch)) for batch in dataset] == [3.0, 12.0]
print("OK")
