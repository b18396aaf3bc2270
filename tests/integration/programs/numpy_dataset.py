"""TF 2.3: a distribution strategy builds its input pipeline from NumPy arrays."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
features = np.arange(12, dtype=np.float32).reshape(6, 2)
labels = np.arange(6, dtype=np.float32)
dataset = strategy.experimental_make_numpy_dataset((features, labels)).batch(3)
assert dataset.element_spec[0].shape.as_list() == [None, 2], dataset.element_spec

total = 0.0
for batch_features, batch_labels in strategy.experimental_distribute_dataset(dataset):
    total += float(tf.reduce_sum(strategy.experimental_local_results(batch_features)[0]))
assert total == float(features.sum()), total
print("OK")
