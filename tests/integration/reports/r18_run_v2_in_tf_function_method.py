"""A tf.function method that trains through self._strategy.experimental_run_v2.
Report: https://github.com/danijar/dreamer/issues/50"""
import tensorflow as tf


class Agent:
    def __init__(self):
        self._strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
        self.total = tf.Variable(0.0)

    def _train(self, data):
        self.total.assign_add(tf.reduce_sum(data))

    @tf.function
    def train(self, data):
        self._strategy.experimental_run_v2(self._train, args=(data,))


agent = Agent()
agent.train(tf.ones((4,)))
assert float(agent.total) == 4.0
print("OK")
