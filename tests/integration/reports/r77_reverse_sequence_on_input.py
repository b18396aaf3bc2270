"""tf.reverse_sequence on Keras symbolic inputs while building a functional model.
Report: tensorflow/addons#2250 (tensorflow/tensorflow#45136): reverse_sequence does not support symbolic tensors on TF 2.4"""
import tensorflow as tf

inputs = tf.keras.Input((4, 2))
lengths = tf.keras.Input((), dtype=tf.int32)
outputs = tf.reverse_sequence(inputs, lengths, seq_axis=1, batch_axis=0)
model = tf.keras.Model([inputs, lengths], outputs)
print(model([tf.ones((1, 4, 2)), tf.constant([2])]).shape)
print("OK")
