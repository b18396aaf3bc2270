"""TF24107: the stable `MultiWorkerMirroredStrategy` (TF 2.4) takes `communication_options=`."""
import os

import tensorflow as tf

os.environ.pop("TF_CONFIG", None)
strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy(
    tf.distribute.experimental.CollectiveCommunication.RING
)
assert strategy.num_replicas_in_sync == 1
print("OK")
