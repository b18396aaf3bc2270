"""An Estimator trained with the TF 2.3 parameter server strategy built from TF_CONFIG.
Report: tensorflow/tensorflow#45291 (https://github.com/tensorflow/tensorflow/issues/45291): the TF 2.4 `tf.distribute.experimental.ParameterServerStrategy` is a new class; Estimator code must use `tf.compat.v1.distribute.experimental.ParameterServerStrategy`"""
import json
import os

import tensorflow as tf

os.environ["TF_CONFIG"] = json.dumps(
    {"cluster": {"chief": ["localhost:2222"], "ps": ["localhost:2223"]}, "task": {"type": "chief", "index": 0}}
)
strategy = tf.distribute.experimental.ParameterServerStrategy()
config = tf.estimator.RunConfig(train_distribute=strategy)
print(config.train_distribute is strategy)
print("OK")
