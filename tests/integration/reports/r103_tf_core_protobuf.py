"""A SavedModel's protocol buffer parsed through `tf.core.protobuf`.
Report: public code (tensorflow/tfx, `tfx/experimental/distributed_inference/graphdef_experiments/subgraph_partitioning/`): `tf.core.protobuf.saved_model_pb2.SavedModel()`"""
import os
import tempfile

import tensorflow as tf


class AddOne(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def __call__(self, x):
        return {"y": x + 1.0}


export_dir = tempfile.mkdtemp()
tf.saved_model.save(AddOne(), export_dir)
saved_model = tf.core.protobuf.saved_model_pb2.SavedModel()
with tf.io.gfile.GFile(os.path.join(export_dir, "saved_model.pb"), "rb") as f:
    saved_model.ParseFromString(f.read())
print(len(saved_model.meta_graphs[0].signature_def))
print("OK")
