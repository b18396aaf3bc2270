"""An evaluation step run on each replica with `experimental_run_v2`, outside a tf.function.
Report: microsoft/UST#5: 'MirroredStrategy' object has no attribute 'experimental_run_v2'"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])


def eval_step(inputs):
    return inputs * 2.0


def distributed_eval_step(dataset_inputs):
    return strategy.experimental_run_v2(eval_step, args=(dataset_inputs,))


for batch in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensors(tf.ones((2,)))):
    print(distributed_eval_step(batch))
print("OK")
