"""TF24308: `enable_mixed_precision_graph_rewrite` moves to `tf.compat.v1.mixed_precision` in TF 2.4."""
import tensorflow as tf

optimizer = tf.train.experimental.enable_mixed_precision_graph_rewrite(tf.keras.optimizers.SGD())
assert hasattr(optimizer, "get_scaled_loss")
print("OK")
