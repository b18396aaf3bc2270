"""TF24602: the automatic mixed precision lists are read from *_ALLOWLIST_* variables in TF 2.4."""
import os

os.environ["TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_WHITELIST_ADD"] = "MatMul"
import tensorflow as tf

print("OK")
