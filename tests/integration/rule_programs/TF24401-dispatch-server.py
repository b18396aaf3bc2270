"""TF24401: `DispatchServer` takes a `DispatcherConfig` from TF 2.4, not a port and a protocol."""
import tensorflow as tf

dispatcher = tf.data.experimental.service.DispatchServer(0, "grpc", start=True)
assert dispatcher.target.startswith("grpc://")
print("OK")
