"""A strategy's input pipeline made from NumPy arrays (release notes, tf.distribute).
Report: TF 2.4.0 release notes, tf.distribute: experimental_make_numpy_dataset removed"""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
features = np.ones((4, 2), dtype=np.float32)
dataset = strategy.experimental_make_numpy_dataset(features).batch(2)
assert len(list(dataset)) == 2
print("OK")
