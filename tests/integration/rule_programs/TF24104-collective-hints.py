"""TF24104: `CollectiveHints` is `CommunicationOptions` from TF 2.4; the old name still works."""
import tensorflow as tf

hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=1024)
assert hints.bytes_per_pack == 1024
print("OK")
