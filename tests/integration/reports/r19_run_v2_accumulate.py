"""Gradient accumulation on replicas, as in a library's optimizer test.
Report: https://github.com/huggingface/transformers/pull/9120"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    accumulated = tf.Variable(0.0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)


def accumulate_on_replica(gradient):
    accumulated.assign_add(gradient)


@tf.function
def accumulate(gradient):
    strategy.experimental_run_v2(accumulate_on_replica, args=(gradient,))


accumulate(tf.constant(2.0))
assert float(strategy.experimental_local_results(accumulated)[0]) == 2.0
print("OK")
