"""A TF 2.3 local tf.data service: a dispatcher and a worker on free ports, a dataset read back."""
import tensorflow as tf
from tensorflow.data.experimental.service import WorkerServer

dispatcher = tf.data.experimental.service.DispatchServer(port=0, protocol="grpc", start=True)
dispatcher_address = dispatcher.target.split("://")[1]
worker = WorkerServer(
    0,  # any free port
    dispatcher_address,
    protocol="grpc",
)

dataset = tf.data.Dataset.range(10)
dataset = dataset.apply(
    tf.data.experimental.service.distribute(processing_mode="parallel_epochs", service=dispatcher.target)
)
assert sorted(int(value) for value in dataset) == list(range(10))
print("OK")
