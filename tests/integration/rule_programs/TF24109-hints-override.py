"""TF24109: TF 2.4 passes `options` to `CrossDeviceOps.reduce_implementation`, not `experimental_hints`."""
import tensorflow as tf


class Sum(tf.distribute.ReductionToOneDevice):
    def reduce_implementation(self, reduce_op, per_replica_value, destinations, experimental_hints):
        return super().reduce_implementation(reduce_op, per_replica_value, destinations, experimental_hints)


strategy = tf.distribute.MirroredStrategy(["/cpu:0"], cross_device_ops=Sum())
result = strategy.run(lambda: tf.constant(2.0))
assert float(strategy.reduce(tf.distribute.ReduceOp.SUM, result, axis=None)) == 2.0
print("OK")
