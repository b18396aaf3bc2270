"""TF24402 (with TF24401 for the dispatcher): `WorkerServer` takes a `WorkerConfig` from TF 2.4.
"""
# rules: TF24401
import tensorflow as tf

dispatcher = tf.data.experimental.service.DispatchServer(0)
worker = tf.data.experimental.service.WorkerServer(0, dispatcher.target.split("://")[1])
dataset = tf.data.Dataset.range(5).apply(
    tf.data.experimental.service.distribute(processing_mode="parallel_epochs", service=dispatcher.target)
)
assert sorted(int(value) for value in dataset) == list(range(5))
print("OK")
