"""TF24506: `tf.xla.experimental.compile` is deprecated; `tf.function(experimental_compile=True)`."""
import tensorflow as tf


def step(x, y):
    return x + y


outputs = tf.xla.experimental.compile(step, inputs=[tf.constant(1.0), tf.constant(2.0)])
print("OK")
