"""The generated op `gen_cudnn_rnn_ops.cudnn_rnn` called on a Keras input to build a functional model (built only: the kernel needs a GPU).
Report: tensorflow/tensorflow#52237: "kerasTensor not behaving as expected, functional api incorrectly skipped" (an op without dispatching breaks on KerasTensors)"""
import tensorflow as tf
from tensorflow.python.ops.gen_cudnn_rnn_ops import cudnn_rnn

seq, batch, features, units = 5, 2, 4, 3
inputs = tf.keras.Input(shape=(seq, features), batch_size=batch)
time_major = tf.transpose(inputs, [1, 0, 2])
h = tf.zeros((1, batch, units))
c = tf.zeros((1, batch, units))
params = tf.zeros((4 * (features * units + units * units + 2 * units),))
output, output_h, output_c, _ = cudnn_rnn(time_major, h, c, params, rnn_mode="lstm")
model = tf.keras.Model(inputs, tf.transpose(output, [1, 0, 2]))
print(model.output_shape)
print("OK")
