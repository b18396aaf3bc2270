"""The family's rename-like rules, as rows: TF24601 `trt-nodes-denylist`."""

from __future__ import annotations

from tf24migrate.model.findings import Severity
from tf24migrate.rules.kinds import RenameKeyword

TRT_NODES_DENYLIST = RenameKeyword(
    code="TF24601",
    name="trt-nodes-denylist",
    new_since="2.4",
    old_removed="2.4",
    callees=("TrtGraphConverter", "create_inference_graph"),
    old="nodes_blacklist",
    new="nodes_denylist",
    severity=Severity.ERROR,
    message="`nodes_blacklist=` was renamed `nodes_denylist=` in TF 2.4.",
    doc="""
    The TF-TRT converter's keyword `nodes_blacklist=` is `nodes_denylist=` from TF 2.4.

    Applies to `TrtGraphConverter(...)` and `create_inference_graph(...)` (from
    `tensorflow.python.compiler.tensorrt.trt_convert`), matched by the called name. The parameter
    kept its position, so positional uses need no change.

    Before: `trt.TrtGraphConverter(input_graph_def=graph_def, nodes_blacklist=["logits"])`
    After:  `trt.TrtGraphConverter(input_graph_def=graph_def, nodes_denylist=["logits"])`

    Versions: `nodes_denylist=` replaces `nodes_blacklist=` in TF 2.4 (`TrtGraphConverter.__init__` in
    tensorflow/python/compiler/tensorrt/trt_convert.py of the tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """,
)


RULES = (TRT_NODES_DENYLIST,)
