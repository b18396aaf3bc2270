"""TF24603 `tpu-embedding-batch-size`: `tf.tpu.experimental.embedding.TPUEmbedding` no longer takes
`batch_size` from TF 2.4."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext

_TPU_EMBEDDING = "tensorflow.tpu.experimental.embedding.TPUEmbedding"
# The optimizers `TPUEmbedding` takes (TF 2.3 and 2.4 both have these three).
_OPTIMIZERS = frozenset(
    f"tensorflow.tpu.experimental.embedding.{name}" for name in ("SGD", "Adagrad", "Adam")
)


def _is_bool(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value in ("True", "False")


def _is_int(node: cst.CSTNode) -> bool:
    """An int literal, or arithmetic on them (`1024`, `8 * 128`, `-1`)."""
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, cst.BinaryOperation):
        return _is_int(node.left) and _is_int(node.right)
    if isinstance(node, cst.UnaryOperation):
        return _is_int(node.expression)
    return False


def _last_word(node: cst.CSTNode) -> str:
    """The last name of a name or attribute (`self._batch_size` -> `batch_size`), lowercased."""
    if isinstance(node, cst.Attribute):
        node = node.attr
    return node.value.strip("_").lower() if isinstance(node, cst.Name) else ""


def _reads_like_batch_size(node: cst.CSTNode) -> bool:
    word = _last_word(node)
    return "batch" in word or word == "bs"


def _reads_like_optimizer(ctx: RuleContext, node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Call):
        return ctx.qualified_name(node.func) in _OPTIMIZERS
    word = _last_word(node)
    return "optim" in word or word == "opt" or word.endswith("_opt")


def _reads_like_pipelining(node: cst.CSTNode) -> bool:
    word = _last_word(node)
    return _is_bool(node) or "pipeline" in word or "tensor_core" in word


def _calls_build(ctx: RuleContext, call: cst.Call) -> bool:
    """Whether the file builds the embedding the 2.4 way: `per_replica_batch_size` (a TF 2.4 name),
    or `X.build(` where `X = TPUEmbedding(...)` is this call's assignment."""
    if "per_replica_batch_size" in ctx.source:
        return True
    parent = ctx.ancestors[0] if ctx.ancestors else None
    if not (isinstance(parent, cst.Assign) and parent.value is call and len(parent.targets) == 1):
        return False
    bound = " ".join(code_for(parent.targets[0].target).split())
    return re.search(rf"{re.escape(bound)}\s*\.\s*build\s*\(", ctx.source) is not None


class TpuEmbeddingBatchSize(Rule):
    """`tf.tpu.experimental.embedding.TPUEmbedding` no longer takes `batch_size` from TF 2.4.

    TF 2.3: `TPUEmbedding(feature_config, batch_size, optimizer, pipeline_execution_with_tensor_core=False,
    initialize_tpu_embedding=True)`; TF 2.4: `TPUEmbedding(feature_config, optimizer,
    pipeline_execution_with_tensor_core=False)`. A 2.3 call with three positional arguments does
    not fail on 2.4, it passes the batch size as the optimizer. The batch size now goes to
    `embedding.build(per_replica_batch_size=...)`, or is inferred from the first `enqueue`.
    Matched: calls passing `batch_size=` or `initialize_tpu_embedding=`, two positional arguments
    and `optimizer=`, four or more positional arguments, and three where the call reads as the
    2.3 form: the second a whole number or named as a batch size, or the third the optimizer.
    Three that read as the 2.4 form are right and not reported: the second named as an optimizer
    (or a `tf.tpu.experimental.embedding` optimizer made there), the third `True` / `False` or
    named as `pipeline_execution_with_tensor_core`, or the file building the embedding the 2.4 way
    (`embedding.build(...)` on the name the call is assigned to, or `per_replica_batch_size`).
    Three positional arguments with nothing to tell them apart are the 2.3 form: 2.4's third is
    a flag, rarely passed by position. Not rewritten: `build` is called elsewhere, with the
    per-replica size, not the global one.

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
        evidence: str | None = "`batch_size=` is passed"
        if batch_size is None and len(positional) == 2 and "optimizer" in keywords:
            batch_size, evidence = positional[1], "`optimizer=` is passed after two positional arguments"
        elif batch_size is None and len(positional) >= 3:
            evidence = _as_tf_2_3(ctx, original, positional, keywords)
            batch_size = positional[1] if evidence is not None else None
        if batch_size is not None:
            value = " ".join(code_for(batch_size.value).split())
            ctx.report(
                batch_size,
                f"`TPUEmbedding` has no `batch_size` from TF 2.4: remove `{value}` from this call "
                "({evidence}).\n"
                "Its second positional argument is now `optimizer`. Pass the per-replica batch size to "
                f"`embedding.build(per_replica_batch_size=...)` (the global `{value}` divided by "
                "`strategy.num_replicas_in_sync`), or let the first `enqueue` infer it.",
                evidence=evidence,
            )
        if "initialize_tpu_embedding" in keywords:
            ctx.report(
                keywords["initialize_tpu_embedding"],
                "`TPUEmbedding(initialize_tpu_embedding=)` was removed in TF 2.4: remove the argument.",
            )
        return updated


def _as_tf_2_3(
    ctx: RuleContext, call: cst.Call, positional: list[cst.Arg], keywords: dict[str, cst.Arg]
) -> str | None:
    """Why a call with three or more positional arguments is the TF 2.3 form `(feature_config,
    batch_size, optimizer, ...)`, or None where it reads as the TF 2.4 form `(feature_config,
    optimizer, pipeline_execution_with_tensor_core)`. Three positional arguments with nothing to
    tell them apart are the 2.3 form: 2.4's third is a flag, rarely passed by position."""
    second, third = positional[1].value, positional[2].value
    if len(positional) > 3:
        return "TF 2.4 takes three positional arguments at most"
    if "pipeline_execution_with_tensor_core" in keywords:
        return "`pipeline_execution_with_tensor_core=` is passed after three positional arguments"
    if _is_int(second):
        return "the second argument is a whole number"
    if _reads_like_batch_size(second):
        return "the second argument is named as a batch size"
    if _reads_like_optimizer(ctx, third) and not _reads_like_optimizer(ctx, second):
        return "the third argument is the optimizer"
    if _reads_like_optimizer(ctx, second) or _reads_like_pipelining(third) or _calls_build(ctx, call):
        return None  # the TF 2.4 form
    return "three positional arguments, the TF 2.3 form"


RULES = (TpuEmbeddingBatchSize(),)
