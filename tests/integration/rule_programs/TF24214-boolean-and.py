"""TF24214: `&` of boolean Keras symbolic tensors is `tf.math.logical_and` through `Tensor.__and__`,
which does not dispatch: TF 2.3 made an op layer of it, TF 2.4 raises TypeError."""
import tensorflow as tf

values = tf.keras.Input((3,))
in_range = (values > 0.0) & (values < 1.0)
model = tf.keras.Model(values, in_range)
assert model(tf.constant([[0.5, 2.0, -1.0]])).numpy().tolist() == [[True, False, False]]
print("OK")
