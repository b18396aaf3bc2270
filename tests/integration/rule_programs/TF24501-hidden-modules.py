"""TF24501: `tf.python` and the other internal modules are not reachable from `tf` in TF 2.4."""
import tensorflow as tf

tf.python.keras.backend.clear_session()
print("OK")
