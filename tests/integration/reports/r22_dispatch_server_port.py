"""A tf.data service dispatcher started on a port (release notes, tf.data).
Report: TF 2.4.0 release notes, tf.data: DispatchServer takes a DispatcherConfig"""
import tensorflow as tf

dispatcher = tf.data.experimental.service.DispatchServer(port=0)
assert dispatcher.target.startswith("grpc://")
print("OK")
