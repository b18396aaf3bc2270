"""TF24103: `all_reduce` and `reduce_to` take `options=` from TF 2.4, and no `experimental_hints=`."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=1024)


@tf.function
def replica_sum():
    context = tf.distribute.get_replica_context()
    return context.all_reduce(tf.distribute.ReduceOp.SUM, tf.constant(3.0), experimental_hints=hints)


result = strategy.run(replica_sum)
assert float(strategy.experimental_local_results(result)[0]) == 3.0
reduced = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, result, destinations="/cpu:0", experimental_hints=hints)
assert float(reduced) == 3.0
print("OK")
