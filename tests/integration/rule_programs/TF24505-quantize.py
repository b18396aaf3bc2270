"""TF24505: the gradient of `quantize_and_dequantize` is zero outside the range from TF 2.4."""
import tensorflow as tf

x = tf.constant([-20.0, 0.0, 20.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.quantization.quantize_and_dequantize(x, -10.0, 10.0, range_given=True)
assert tape.gradient(y, x).numpy().tolist() == [1.0, 1.0, 1.0]
print("OK")
