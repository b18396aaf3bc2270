"""TF24102: `distribute_datasets_from_function` is new in TF 2.4; the experimental name still works."""
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
dataset = strategy.experimental_distribute_datasets_from_function(lambda context: tf.data.Dataset.range(4).batch(2))
assert [int(tf.reduce_sum(batch)) for batch in dataset] == [1, 5]
print("OK")
