"""TF24509: TF 2.4's `Layer.add_weight` has no `partitioner` parameter: the positional arguments
after `constraint` bind one parameter earlier (`use_resource` gets the partitioner's `None`,
`synchronization` the `use_resource`), through `self` of a layer derived from Keras's and a layer
built in the same scope."""
import tensorflow as tf


class Base(tf.keras.layers.Layer):
    pass


class Counter(Base):
    def build(self, input_shape):
        on_read = tf.VariableSynchronization.ON_READ
        self.count = self.add_weight("count", (), tf.int64, "zeros", None, False, None, None, None, on_read)


counter = Counter()
counter.build(None)
assert counter.count.synchronization == tf.VariableSynchronization.ON_READ, counter.count.synchronization
dense = tf.keras.layers.Dense(3)
extra = dense.add_weight("extra", (3,), None, "zeros", None, False, None, None, None, tf.VariableSynchronization.AUTO, tf.VariableAggregation.SUM)
assert extra.aggregation == tf.VariableAggregation.SUM, extra.aggregation
print("OK")
