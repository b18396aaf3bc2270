"""A training step distributed with `experimental_run_v2` on a strategy held by a trainer.
Report: Tengfei-Wang/Implicit-Internal-Video-Inpainting#7: 'MirroredStrategy' object has no attribute 'experimental_run_v2'"""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
        with self.strategy.scope():
            self.weight = tf.Variable(1.0)

    def step(self, x):
        return self.weight * x

    def distributed_step(self, x):
        return self.strategy.experimental_run_v2(self.step, args=(x,))


print(Trainer().distributed_step(tf.constant(3.0)))
print("OK")
