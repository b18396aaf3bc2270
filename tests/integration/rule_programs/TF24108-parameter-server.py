"""TF24108: `tf.distribute.experimental.ParameterServerStrategy` is a new class in TF 2.4, built from
a `ClusterResolver`; the TF 2.3 class, built from `TF_CONFIG`, is `tf.compat.v1`'s."""
import json
import os

import tensorflow as tf

cluster = {"worker": ["localhost:12345"], "ps": ["localhost:12346"]}
os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}})
strategy = tf.distribute.experimental.ParameterServerStrategy()
assert strategy.extended.parameter_devices == ("/job:ps/task:0",), strategy.extended.parameter_devices
print("OK")
