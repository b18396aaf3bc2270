"""A dataset read from an HDF5 file through `tf.keras.utils.HDF5Matrix`.
Report: rstudio/keras3#1175 (https://github.com/rstudio/keras3/pull/1175): "HDF5Matrix has been removed from Keras in TF 2.4" (`keras$utils$HDF5Matrix`)"""
import os
import tempfile

import h5py
import numpy as np
import tensorflow as tf

path = os.path.join(tempfile.mkdtemp(), "data.h5")
with h5py.File(path, "w") as f:
    f["x"] = np.ones((4, 2), dtype=np.float32)
x = tf.keras.utils.HDF5Matrix(path, "x")
print(x.shape)
print("OK")
