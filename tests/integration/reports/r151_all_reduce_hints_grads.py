"""The gradient all-reduce of the CollectiveHints example in TF 2.3's API documentation, in a training step: gradients summed across replicas with packing hints, then applied without the optimizer's own aggregation.
Report: [TF 2.3 API docs, `tf.distribute.experimental.CollectiveHints`](https://www.tensorflow.org/versions/r2.3/api_docs/python/tf/distribute/experimental/CollectiveHints): `grads = tf.distribute.get_replica_context().all_reduce('sum', grads, experimental_hints=hints)`, then `optimizer.apply_gradients(zip(grads, vars), experimental_aggregate_gradients=False)`"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    optimizer = tf.keras.optimizers.SGD(0.1)

hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=50 * 1024 * 1024)


@tf.function
def train_step(x, y):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        grads = tf.distribute.get_replica_context().all_reduce(
            "sum", grads, experimental_hints=hints)
        optimizer.apply_gradients(zip(grads, model.trainable_variables),
                                  experimental_aggregate_gradients=False)
        return loss

    return strategy.run(step_fn, args=(x, y))


print(float(train_step(tf.ones((4, 3)), tf.ones((4, 1)))))
print("OK")
