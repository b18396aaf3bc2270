"""A TF 2.3 single-worker MultiWorkerMirroredStrategy with RING collectives and a Keras model."""
import os

import numpy as np
import tensorflow as tf

os.environ.pop("TF_CONFIG", None)
strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy(
    tf.distribute.experimental.CollectiveCommunication.RING
)
assert isinstance(strategy, tf.distribute.MultiWorkerMirroredStrategy)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    model.compile(optimizer="sgd", loss="mse", experimental_steps_per_execution=2)
model.fit(np.ones((8, 2)), np.ones((8, 1)), batch_size=4, epochs=1, verbose=0)


@tf.function
def replica_sum():
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce(
        tf.distribute.ReduceOp.SUM,
        tf.constant(3.0),
        experimental_hints=tf.distribute.experimental.CollectiveHints(bytes_per_pack=1024),
    )


result = strategy.experimental_run_v2(replica_sum)
assert float(strategy.experimental_local_results(result)[0]) == 3.0
print("OK")
