"""TF24225 `tensorboard-graph-mode`: with eager execution off, `predict` and `evaluate` fail on a
`TensorBoard` callback from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import any_of, word

from .._text import assigned_value
from ._symbolic import builds_graph_tensors

_TENSORBOARD = "tensorflow.keras.callbacks.TensorBoard"
_METHODS = frozenset({"predict", "evaluate", "predict_generator", "evaluate_generator"})
# What a file that runs Keras without eager execution holds (`_symbolic.builds_graph_tensors`).
_GRAPH_MODE = any_of("disable_eager_execution", "disable_v2_behavior", "as_default", "Session")


def _is_tensorboard(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is `TensorBoard(...)`, or a name bound to one in the same scope."""
    if isinstance(node, cst.Name):
        node = assigned_value(ctx, node) or node
    return isinstance(node, cst.Call) and ctx.qualified_name(node.func) == _TENSORBOARD


def _holds_tensorboard(ctx: RuleContext, callbacks: cst.BaseExpression) -> bool:
    """Whether the list (or tuple) `callbacks`, written out or bound to a name in the same scope,
    holds a `TensorBoard` callback."""
    if isinstance(callbacks, cst.Name):
        callbacks = assigned_value(ctx, callbacks) or callbacks
    if not isinstance(callbacks, (cst.List, cst.Tuple)):
        return False
    return any(
        isinstance(element, cst.Element) and _is_tensorboard(ctx, element.value)
        for element in callbacks.elements
    )


class TensorboardGraphMode(Rule):
    """With eager execution off, `predict` and `evaluate` fail on a `TensorBoard` callback from TF 2.4.

    Without eager execution (`tf.compat.v1.disable_eager_execution()`, `disable_v2_behavior()`, or
    in a `with graph.as_default():`), `tf.keras.callbacks.TensorBoard(...)` makes TF 1's callback,
    which never sets the `_should_trace` that TF 2.4's `predict` and `evaluate` (and their
    `_generator` forms) read: they raise `AttributeError: 'TensorBoard' object has no attribute
    '_should_trace'` (executed on TF 2.3.0, 2.4.0 and 2.15.1; tensorflow/tensorflow#44563). `fit`
    still takes it. Give the callback to `fit` only, or keep eager execution on.

    Reported at a `predict`, `evaluate`, `predict_generator` or `evaluate_generator` call whose
    `callbacks=` list holds `TensorBoard(...)` (written there, or a name bound to it in the same
    scope), where Keras runs without eager execution as the file shows it (the evidence of the
    Functional-API rules: after the call that turns eager execution off, or in a `with` making a
    graph the default). Not rewritten: which callbacks to keep is the author's choice.

    Reported: `tf.compat.v1.disable_eager_execution()` then `model.predict(x, callbacks=[tf.keras.callbacks.TensorBoard("logs")])`
    Write instead: `tf.compat.v1.disable_eager_execution()` then `model.predict(x)`

    Versions: TF 2.4's `predict` and `evaluate` read the callback's `_should_trace`, which the TF 1
    `TensorBoard` (tensorflow/python/keras/callbacks_v1.py of the tensorflow-cpu 2.4.0 wheel) never sets.
    """

    code = "TF24225"
    name = "tensorboard-graph-mode"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # the call's `callbacks=`, and the `TensorBoard(...)` whose name is followed to it
    triggers = (word("callbacks"), "TensorBoard")
    requires = (*IMPORTS_TENSORFLOW, "TensorBoard", _GRAPH_MODE)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _METHODS):
            return updated
        callbacks = next(
            (
                arg.value
                for arg in original.args
                if arg.keyword is not None and arg.keyword.value == "callbacks"
            ),
            None,
        )
        if callbacks is None or not _holds_tensorboard(ctx, callbacks) or not builds_graph_tensors(ctx):
            return updated
        ctx.report(
            original,
            f"`{abbreviated(original)}` raises AttributeError from TF 2.4 on its `TensorBoard` callback: "
            "give that callback to `fit` only, or keep eager execution on.\nWith eager execution off, "
            "`TensorBoard(...)` is TF 1's callback, which lacks the `_should_trace` that TF 2.4's "
            f"`{func.attr.value}` reads (tensorflow/tensorflow#44563).",
        )
        return updated


RULES = (TensorboardGraphMode(),)
