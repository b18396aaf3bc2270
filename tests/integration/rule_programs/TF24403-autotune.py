"""TF24403: `tf.data.AUTOTUNE` is new in TF 2.4; `tf.data.experimental.AUTOTUNE` still works."""
import tensorflow as tf

dataset = tf.data.Dataset.range(4).map(lambda x: x * 2, num_parallel_calls=tf.data.experimental.AUTOTUNE)
assert [int(x) for x in dataset.prefetch(tf.data.experimental.AUTOTUNE)] == [0, 2, 4, 6]
print("OK")
