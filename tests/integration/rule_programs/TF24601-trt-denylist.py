"""TF24601: TensorRT's converter takes `nodes_denylist=` from TF 2.4."""
from tensorflow.python.compiler.tensorrt import trt_convert as trt
import tensorflow as tf

tf.compat.v1.disable_v2_behavior()

graph_def = tf.compat.v1.GraphDef()
converter = trt.TrtGraphConverter(input_graph_def=graph_def, nodes_blacklist=["logits"])
print("OK")
