"""TF 2.3 code whose unsafe rewrites (TF24210, TF24505) must keep its TF 2.3 meaning on a newer TF."""

import json

import tensorflow as tf

x = tf.constant([-20.0, -1.0, 0.5, 3.0, 20.0])


def eager_gradient():
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.quantization.quantize_and_dequantize(x, -10.0, 10.0, range_given=True)
    return tape.gradient(y, x)


@tf.function
def graph_gradient():
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.quantization.quantize_and_dequantize(x, -10.0, 10.0, range_given=True)
    return tape.gradient(y, x)


inputs = tf.keras.Input((3,))
symbolic_is_tensor = isinstance(inputs, tf.Tensor)  # True on TF 2.3
print(
    json.dumps(
        {
            "eager": eager_gradient().numpy().tolist(),
            "graph": graph_gradient().numpy().tolist(),
            "symbolic_is_tensor": bool(symbolic_is_tensor),
        }
    )
)
