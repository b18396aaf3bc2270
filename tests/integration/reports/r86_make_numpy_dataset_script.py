"""A training script feeding NumPy arrays through its strategy's `experimental_make_numpy_dataset`.
Report: public code (sbl1996/hanser, a CIFAR-10 training script): `ds = strategy.experimental_make_numpy_dataset((x_train, y_train))`"""
import numpy as np
import tensorflow as tf

x_train = np.ones((8, 4, 4, 3), dtype=np.float32)
y_train = np.zeros((8,), dtype=np.int64)
strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
ds = strategy.experimental_make_numpy_dataset((x_train, y_train))
ds_train = strategy.experimental_distribute_dataset(ds.batch(4))
print(sum(1 for _ in ds_train))
print("OK")
