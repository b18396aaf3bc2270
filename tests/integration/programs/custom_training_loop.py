"""A TF 2.3 custom training loop on two CPU replicas: MirroredStrategy, hints, reductions, Keras."""
import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=0)


def dataset_fn(input_context):
    data = np.arange(16, dtype=np.float32).reshape(8, 2)
    return tf.data.Dataset.from_tensor_slices(data).batch(2)


def replica_step(batch):
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce(tf.distribute.ReduceOp.SUM, tf.reduce_sum(batch), experimental_hints=hints)


@tf.function
def train_step(batch):
    return strategy.experimental_run_v2(replica_step, args=(batch,))


dataset = strategy.experimental_distribute_datasets_from_function(dataset_fn)
total = 0.0
for batch in dataset:
    per_replica = train_step(batch)
    total += float(strategy.experimental_local_results(per_replica)[0])
assert total == float(np.arange(16).sum()), total

ones = strategy.experimental_run_v2(lambda: tf.constant(1.0))
reduced = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, ones, destinations="/cpu:0", experimental_hints=hints)
assert float(reduced) == 2.0, reduced

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    model.compile(optimizer="sgd", loss="mse", experimental_steps_per_execution=2)
model.fit(np.ones((8, 2)), np.ones((8, 1)), batch_size=4, epochs=1, verbose=0)
print("OK")
