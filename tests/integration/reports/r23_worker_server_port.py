"""A tf.data service worker started on a port with the dispatcher's address (release notes).
Report: TF 2.4.0 release notes, tf.data: WorkerServer takes a WorkerConfig"""
import tensorflow as tf
from tensorflow.data.experimental.service import DispatchServer, WorkerServer

dispatcher = DispatchServer(0, "grpc")
worker = WorkerServer(0, dispatcher.target.split("://")[1])
print("OK")
