"""TF24511: `freeze_graph.freeze_graph` took `variable_names_denylist` in place of
`variable_names_blacklist` in TF 2.4: a call passing the old keyword raises TypeError. Bound by
the real signature, without reading any file."""
import inspect

import tensorflow as tf
from tensorflow.python.tools import freeze_graph

signature = inspect.signature(freeze_graph.freeze_graph)
freeze_graph.freeze_graph = signature.bind

frozen = "frozen.pb"
freeze_graph.freeze_graph("graph.pbtxt", "", False, "model.ckpt", "logits", "", "", frozen, True, "", variable_names_blacklist="global_step")
print("OK")
