"""An all-reduce with packing hints (release notes, tf.distribute).
Report: TF 2.4.0 release notes, tf.distribute: experimental_hints renamed options"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=50 * 1024 * 1024)


@tf.function
def step():
    context = tf.distribute.get_replica_context()
    return context.all_reduce(tf.distribute.ReduceOp.SUM, tf.constant(1.0), experimental_hints=hints)


assert float(strategy.experimental_local_results(strategy.run(step))[0]) == 1.0
print("OK")
