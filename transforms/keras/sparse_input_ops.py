"""TF24221 `sparse-input-ops`: `tf.sparse` functions cannot take a sparse Keras `Input` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.model.release_diff import SPARSE_SYMBOLIC_ATTRIBUTES_GONE, SYMBOLIC_ATTRIBUTES_GONE
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import Pattern, after_dot, any_of

from .._text import assigned_value
from ._symbolic import INPUTS, builds_graph_tensors

# what a sparse input lost that a Keras symbolic value of any kind lost too is TF24216's
_GONE = frozenset(SPARSE_SYMBOLIC_ATTRIBUTES_GONE) - frozenset(SYMBOLIC_ATTRIBUTES_GONE)
_ATTRIBUTES = after_dot(*sorted(_GONE))
_CALLS = Pattern(r"\bsparse\.\w+[ \t]*\(", "sparse.")
# what to read instead of an attribute a sparse input lost
_INSTEAD = {
    "dense_shape": "read it in a layer: `tf.keras.layers.Lambda(lambda x: x.dense_shape)({receiver})`",
}


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

    A `SparseKerasTensor` also lacks attributes a `SparseTensor` had: `inputs.dense_shape` raises
    `AttributeError` (and so does `tf.SparseTensor(inputs.indices, inputs.values,
    inputs.dense_shape)`); the releases' own list, `release_diff.SPARSE_SYMBOLIC_ATTRIBUTES_GONE`,
    diffed from a sparse `Input` on each (those any Keras symbolic value lost are TF24216's).
    Read them in a layer, where the value is a `SparseTensor`.

    Reported: `inputs = tf.keras.Input((3, 4), sparse=True)` then `flat = tf.sparse.reshape(inputs, [-1, 4])`
    Write instead: `flat = tf.keras.layers.Lambda(lambda x: tf.sparse.reshape(x, [-1, 4]))(inputs)`

    Reported: `inputs = tf.keras.Input((3,), sparse=True)` then `rows = inputs.dense_shape[0]`
    Write instead: `rows = tf.keras.layers.Lambda(lambda x: x.dense_shape[0])(inputs)`

    Versions: the Functional API change is in TF 2.4's release notes; the attributes are those of
    `dir()` of `tf.keras.Input((1,), sparse=True)` on TF 2.3.0 and not on 2.4.0 (`python -m
    tf24migrate.dev releases`; `.dense_shape`, and in a `Lambda`, executed on both).
    """

    code = "TF24221"
    name = "sparse-input-ops"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (_CALLS, _ATTRIBUTES, "sparse=True")
    requires = (*IMPORTS_TENSORFLOW, "sparse=True", any_of(_CALLS, _ATTRIBUTES))
    follows = ("sparse=True",)

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        attribute = original.attr.value
        if attribute not in _GONE or builds_graph_tensors(ctx):
            return updated
        evidence = _sparse_input(ctx, original.value)
        if evidence is None:
            return updated
        receiver = abbreviated(original.value)
        instead = _INSTEAD.get(attribute, "read it in a layer, from the `SparseTensor` its `call` is given")
        ctx.report(
            original,
            f"`{abbreviated(original)}` of a sparse Keras `Input` raises AttributeError from TF 2.4: "
            f"{instead.format(receiver=receiver)}.\n"
            f"{sentence(evidence)}; from TF 2.4 it is a `SparseKerasTensor`, which has no "
            f"`{attribute}`.",
            evidence=evidence,
        )
        return updated

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
                f"{sentence(evidence)}; from TF 2.4 it is a `SparseKerasTensor`, not a "
                "`SparseTensor`.",
                evidence=evidence,
            )
        return updated


RULES = (SparseInputOps(),)
