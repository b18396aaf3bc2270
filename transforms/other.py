"""Other APIs (TF246xx): the renamed lists of the automatic mixed-precision graph rewrite
(environment variables), TF-TRT's converter keywords, and the `TPUEmbedding` constructor."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.kinds import RenameKeyword

from ._text import is_prose

_PREFIX = "TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_"
_RENAMED_LISTS = {"WHITELIST": "ALLOWLIST", "BLACKLIST": "DENYLIST", "GRAYLIST": "INFERLIST"}
_OLD_NAME = re.compile(_PREFIX + "(" + "|".join(_RENAMED_LISTS) + ")")


class AmpEnvironmentLists(Rule):
    """The environment variables of the mixed-precision graph rewrite use allow/deny/infer lists
    from TF 2.4.

    `TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_WHITELIST_ADD` and its siblings are
    `..._ALLOWLIST_*` (WHITELIST), `..._DENYLIST_*` (BLACKLIST) and `..._INFERLIST_*` (GRAYLIST) in
    TF 2.4; `..._CLEARLIST_*` is unchanged. The rewrite renames the variable in string literals;
    it is unsafe because whether TF 2.4 and later still read the old names is not verified, and a
    script that must also run on TF < 2.4 needs both names. Docstrings, comments and printed or
    logged text are never rewritten.

    Before: `os.environ["TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_WHITELIST_ADD"] = "MatMul"`
    After:  `os.environ["TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_ALLOWLIST_ADD"] = "MatMul"`

    Versions: the new list names are read from TF 2.4 (the strings of
    tensorflow/python/_pywrap_tensorflow_internal.so in the tensorflow-cpu 2.3.0 and 2.4.0 wheels); the old
    names are still accepted in 2.15.1 (the list-name check in the strings of tensorflow/libtensorflow_cc.so.2
    of that wheel).
    """

    code = "TF24602"
    name = "amp-env-lists"
    new_since = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.WARNING
    triggers = (_PREFIX,)

    def leave_SimpleString(self, ctx, original: cst.SimpleString, updated: cst.SimpleString):
        if not _OLD_NAME.search(original.value) or is_prose(ctx.ancestors, original):
            return updated
        value = _OLD_NAME.sub(lambda m: _PREFIX + _RENAMED_LISTS[m.group(1)], updated.value)
        renames = ", ".join(f"{old} → {new}" for old, new in _RENAMED_LISTS.items() if old in original.value)
        return (
            ctx.report(
                original,
                f"The mixed-precision graph rewrite lists were renamed in TF 2.4 ({renames}): set the new "
                "variable name (and keep the old one too if this also runs on TF < 2.4).",
                replacement=updated.with_changes(value=value),
            )
            or updated
        )


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


_TPU_EMBEDDING = "tensorflow.tpu.experimental.embedding.TPUEmbedding"


def _is_bool(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value in ("True", "False")


class TpuEmbeddingBatchSize(Rule):
    """`tf.tpu.experimental.embedding.TPUEmbedding` no longer takes `batch_size` from TF 2.4.

    TF 2.3: `TPUEmbedding(feature_config, batch_size, optimizer, pipeline_execution_with_tensor_core=False,
    initialize_tpu_embedding=True)`; TF 2.4: `TPUEmbedding(feature_config, optimizer,
    pipeline_execution_with_tensor_core=False)`. A 2.3 call with three positional arguments does
    not fail on 2.4, it passes the batch size as the optimizer. The batch size now goes to
    `embedding.build(per_replica_batch_size=...)`, or is inferred from the first `enqueue`.
    Matched: calls passing `batch_size=` or `initialize_tpu_embedding=`, three or more positional
    arguments (unless the third is `True` / `False`, the 2.4 `pipeline_execution_with_tensor_core`),
    or two positional arguments and `optimizer=`. Not rewritten: `build` is called
    elsewhere, with the per-replica size, not the global one.

    Reported: `embedding = tf.tpu.experimental.embedding.TPUEmbedding(feature_config, 1024, optimizer)`
    Write instead: `embedding = tf.tpu.experimental.embedding.TPUEmbedding(feature_config, optimizer)` and `embedding.build(per_replica_batch_size=1024 // strategy.num_replicas_in_sync)`

    Versions: `TPUEmbedding.__init__` loses `batch_size` and `build(per_replica_batch_size)` appears in TF 2.4
    (tensorflow/python/tpu/tpu_embedding_v2.py of the tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """

    code = "TF24603"
    name = "tpu-embedding-batch-size"
    new_since = "2.4"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = ("TPUEmbedding",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != _TPU_EMBEDDING:
            return updated
        positional = [arg for arg in original.args if arg.keyword is None and not arg.star]
        keywords = {arg.keyword.value: arg for arg in original.args if arg.keyword is not None}
        batch_size = keywords.get("batch_size")
        # `(feature_config, optimizer, True)` is the TF 2.4 form with `pipeline_execution_with_tensor_core`.
        third_is_flag = len(positional) >= 3 and _is_bool(positional[2].value)
        if batch_size is None and (
            (len(positional) >= 3 and not third_is_flag) or (len(positional) == 2 and "optimizer" in keywords)
        ):
            batch_size = positional[1]
        if batch_size is not None:
            value = " ".join(code_for(batch_size.value).split())
            ctx.report(
                batch_size,
                f"`TPUEmbedding` has no `batch_size` from TF 2.4 (its second positional argument is now "
                f"`optimizer`): remove `{value}` from this call and pass the per-replica batch size to "
                f"`embedding.build(per_replica_batch_size=...)` (the global `{value}` divided by "
                "`strategy.num_replicas_in_sync`), or let the first `enqueue` infer it.",
            )
        if "initialize_tpu_embedding" in keywords:
            ctx.report(
                keywords["initialize_tpu_embedding"],
                "`TPUEmbedding(initialize_tpu_embedding=)` was removed in TF 2.4: remove the argument.",
            )
        return updated


RULES = (
    AmpEnvironmentLists(),
    TRT_NODES_DENYLIST,
    TpuEmbeddingBatchSize(),
)
