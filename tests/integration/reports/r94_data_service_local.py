"""An in-process tf.data service started with TF 2.3's keyword arguments, for a local run.
Report: public code (a tf.data service example's `local_service()`): `DispatchServer(port=50050)`, `WorkerServer(port=0, dispatcher_address=...)`"""
import tensorflow as tf


def local_service():
    dispatcher = tf.data.experimental.service.DispatchServer(port=0)
    dispatcher_address = dispatcher.target.split("://")[1]
    worker = tf.data.experimental.service.WorkerServer(port=0, dispatcher_address=dispatcher_address)
    return dispatcher, worker, dispatcher.target


dispatcher, worker, target = local_service()
dataset = tf.data.Dataset.range(4).apply(
    tf.data.experimental.service.distribute(processing_mode="parallel_epochs", service=target)
)
print(sorted(int(x) for x in dataset))
print("OK")
