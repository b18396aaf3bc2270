"""TF24603 `tpu-embedding-batch-size`: `tf.tpu.experimental.embedding.TPUEmbedding` no longer takes
`batch_size` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext

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

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
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
                f"`TPUEmbedding` has no `batch_size` from TF 2.4: remove `{value}` from this call.\n"
                "Its second positional argument is now `optimizer`. Pass the per-replica batch size to "
                f"`embedding.build(per_replica_batch_size=...)` (the global `{value}` divided by "
                "`strategy.num_replicas_in_sync`), or let the first `enqueue` infer it.",
            )
        if "initialize_tpu_embedding" in keywords:
            ctx.report(
                keywords["initialize_tpu_embedding"],
                "`TPUEmbedding(initialize_tpu_embedding=)` was removed in TF 2.4: remove the argument.",
            )
        return updated


RULES = (TpuEmbeddingBatchSize(),)
