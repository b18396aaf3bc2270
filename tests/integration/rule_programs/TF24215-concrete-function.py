"""TF24215: `get_concrete_function` of a Keras symbolic tensor is unsupported from TF 2.4."""
import tensorflow as tf

inputs = tf.keras.Input((3,))


@tf.function
def serve(x):
    return x * 2.0


concrete = serve.get_concrete_function(inputs)
assert concrete.structured_outputs.shape.as_list() == [None, 3]
print("OK")
