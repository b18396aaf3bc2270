"""TF24214: a TF function that does not dispatch on Keras symbolic tensors (an internal sparse
op, found from the TF 2.4.0 wheel): TF 2.3 made an op layer of it, TF 2.4 raises TypeError."""
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import sparse_ops

identity = tf.SparseTensor(np.array([[0, 0], [1, 1]], np.int64), [1.0, 1.0], [2, 2])
features = tf.keras.Input((3,), batch_size=2)
mixed = sparse_ops.sparse_tensor_dense_mat_mul(identity.indices, identity.values, identity.dense_shape, features)
model = tf.keras.Model(features, mixed)
assert model(tf.ones((2, 3))).numpy().tolist() == [[1.0] * 3] * 2
print("OK")
