"""A fixed sparse adjacency multiplied into a Keras input with `sparse_ops.sparse_tensor_dense_mat_mul` (a graph convolution).
Report: tensorflow/tensorflow#55971: "Sparse_ops.sparse_tensor_dense_mat_mul breaks in tensorflow > 2.5: TypeError: You are passing KerasTensor... to a TF API that does not allow registering custom dispatchers\""""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import sparse_ops

n = 4
indices = np.stack([np.arange(n), np.arange(n)], 1).astype(np.int64)
adjacency = tf.SparseTensor(indices, np.ones(n, np.float32), [n, n])

features = tf.keras.Input(shape=(3,), batch_size=n)
hidden = sparse_ops.sparse_tensor_dense_mat_mul(adjacency.indices, adjacency.values, adjacency.dense_shape, features)
outputs = tf.keras.layers.Dense(2)(hidden)
model = tf.keras.Model(features, outputs)
print(model.predict(np.ones((n, 3), np.float32), batch_size=n).shape)
print("OK")
