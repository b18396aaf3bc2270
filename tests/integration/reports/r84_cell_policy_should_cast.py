"""A copy of Keras's RNN `_caching_device` helper that asks a cell's dtype policy whether it casts variables.
Report: public code (a recurrent model copying `recurrent._caching_device`): `if rnn_cell._dtype_policy.should_cast_variables:`"""
import tensorflow as tf


def _caching_device(rnn_cell):
    if tf.executing_eagerly():
        return None
    if not getattr(rnn_cell, "_enable_caching_device", False):
        return None
    if rnn_cell._dtype_policy.should_cast_variables:
        return None
    return lambda op: op.device


cell = tf.keras.layers.LSTMCell(4)
cell._enable_caching_device = True


with tf.Graph().as_default():
    print(_caching_device(cell) is not None)
print("OK")
