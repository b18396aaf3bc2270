"""TF24105: `CollectiveCommunication` is `CommunicationImplementation` from TF 2.4; the old name works."""
import tensorflow as tf

implementation = tf.distribute.experimental.CollectiveCommunication.RING
assert implementation.value == "RING"
print("OK")
