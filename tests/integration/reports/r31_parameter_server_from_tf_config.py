"""A parameter server strategy built from TF_CONFIG (release notes, tf.distribute).
Report: TF 2.4.0 release notes, tf.distribute: ParameterServerStrategy is a new class"""
import json
import os

import tensorflow as tf

os.environ["TF_CONFIG"] = json.dumps(
    {"cluster": {"worker": ["localhost:2222"], "ps": ["localhost:2223"]}, "task": {"type": "worker", "index": 0}}
)
strategy = tf.distribute.experimental.ParameterServerStrategy()
assert strategy.extended.parameter_devices == ("/job:ps/task:0",)
print("OK")
