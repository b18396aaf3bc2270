"""The custom-training tutorial's distributed step with `experimental_run_v2`.
Report: tensorflow/tensorflow#49187: 'MirroredStrategy' object has no attribute 'experimental_run_v2'"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])


@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.experimental_run_v2(tf.reduce_sum, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


assert float(distributed_train_step(tf.ones((2,)))) == 2.0
print("OK")
