"""TF24221 `sparse-input-ops`: `tf.sparse` functions cannot take a sparse Keras `Input` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern

from .._text import assigned_value
from ._symbolic import INPUTS, builds_graph_tensors


def _sparse_input(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """Why `node` is a sparse Keras input: `Input(..., sparse=True)`, or a name bound to one in
    the same scope."""
    value = assigned_value(ctx, node) if isinstance(node, cst.Name) else node
    if not (isinstance(value, cst.Call) and ctx.qualified_name(value.func) in INPUTS):
        return None
    sparse = next((a for a in value.args if a.keyword is not None and a.keyword.value == "sparse"), None)
    if sparse is None or not (isinstance(sparse.value, cst.Name) and sparse.value.value == "True"):
        return None
    shown = f"`{abbreviated(value.func)}(..., sparse=True)`"
    return f"`{node.value}` is bound to {shown}" if isinstance(node, cst.Name) else shown


class SparseInputOps(Rule):
    """`tf.sparse` functions cannot take a sparse Keras `Input` from TF 2.4.

    In TF 2.3 `tf.keras.Input(shape, sparse=True)` was a placeholder `SparseTensor`, which
    `tf.sparse.reshape`, `tf.sparse.to_dense`, `tf.sparse.reduce_sum` and the other `tf.sparse`
    functions took while a functional model was built. From TF 2.4 it is a `SparseKerasTensor`:
    they raise `TypeError: Input must be a SparseTensor` or `AttributeError` (executed on TF 2.3.0
    and 2.4.0; tensorflow/tensorflow#56696). Call them inside a layer instead
    (`tf.keras.layers.Lambda(lambda x: tf.sparse.reshape(x, shape))(inputs)`), where they get a
    real `SparseTensor`. Reported where the argument is visibly a sparse `Input`: `Input(...,
    sparse=True)`, or a name bound to one in the same scope. Not rewritten: the layer to wrap it in
    is a design choice.

    Reported: `inputs = tf.keras.Input((3, 4), sparse=True)` then `flat = tf.sparse.reshape(inputs, [-1, 4])`
    Write instead: `flat = tf.keras.layers.Lambda(lambda x: tf.sparse.reshape(x, [-1, 4]))(inputs)`

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24221"
    name = "sparse-input-ops"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (Pattern(r"\bsparse\.\w+[ \t]*\(", "sparse."), "sparse=True")
    requires = (*IMPORTS_TENSORFLOW, "sparse=True", Pattern(r"\bsparse\.\w+[ \t]*\(", "sparse."))
    follows = ("sparse=True",)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not (ctx.qualified_name(original.func) or "").startswith("tensorflow.sparse."):
            return updated
        if not original.args or builds_graph_tensors(ctx):
            return updated
        evidence = _sparse_input(ctx, original.args[0].value)
        if evidence is not None:
            ctx.report(
                original,
                f"`{abbreviated(original.func)}` of a sparse Keras `Input` raises from TF 2.4: call it in a "
                f"layer instead (`tf.keras.layers.Lambda(lambda x: {abbreviated(original.func)}(x, ...))`).\n"
                f"{evidence[:1].upper()}{evidence[1:]}; from TF 2.4 it is a `SparseKerasTensor`, not a "
                "`SparseTensor`.",
                evidence=evidence,
            )
        return updated


RULES = (SparseInputOps(),)
