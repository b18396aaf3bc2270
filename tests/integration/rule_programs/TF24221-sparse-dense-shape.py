"""TF24221: a sparse Keras `Input` has no `dense_shape` from TF 2.4."""
import tensorflow as tf

inputs = tf.keras.Input((3,), sparse=True)
copy = tf.SparseTensor(inputs.indices, inputs.values * 2.0, inputs.dense_shape)
assert copy.shape.rank == 2
print("OK")
