"""TF24510: `tf.train.Checkpoint(root=...)` of a dictionary, a child in TF 2.3, raises from TF 2.4."""
import tempfile

import tensorflow as tf

step = tf.Variable(3)
ckpt = tf.train.Checkpoint(root={"step": step})
path = ckpt.save(tempfile.mkdtemp() + "/ckpt")
assert "root/step/.ATTRIBUTES/VARIABLE_VALUE" in [name for name, _ in tf.train.list_variables(path)]
print("OK")
