"""TF24109: TF 2.4 calls `CrossDeviceOps.reduce_implementation` with `options=` (from
`batch_reduce_implementation`), not `experimental_hints=`."""
# breaks in TF's call of: reduce_implementation
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

class Sum(tf.distribute.ReductionToOneDevice):
    def reduce_implementation(self, reduce_op, per_replica_value, destinations, experimental_hints):
        return super().reduce_implementation(reduce_op, per_replica_value, destinations, experimental_hints)


strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], cross_device_ops=Sum())
value = strategy.run(lambda: tf.constant(2.0))
(total,) = strategy.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, [(value, "/cpu:0")])
assert float(total) == 4.0
print("OK")
