"""TF24214 `control-flow-on-symbolic`: `tf.cond`, `tf.while_loop` and `tf.map_fn` (and
`tf.reverse_sequence` and the file's `tf.custom_gradient` functions, which do not dispatch) cannot
take Keras symbolic inputs from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import word

from .._text import assigned_value
from ._symbolic import EVIDENCE_TRIGGERS, EVIDENCE_WORDS, symbolic_names

_CONTROL_FLOW = {"tensorflow.cond", "tensorflow.while_loop", "tensorflow.map_fn"}
# TF functions that are not control flow but do not dispatch on `KerasTensor`s either: TF 2.4.0
# raises TypeError ("Cannot convert a symbolic Keras input/output to a numpy array"), TF 2.3.0 made
# an op layer (both run: tests/integration/reports/r77_reverse_sequence_on_input.py).
_NOT_DISPATCHED = {"tensorflow.reverse_sequence"}
# A function made by `tf.custom_gradient` does not dispatch either: TF 2.4.0 raises the same
# TypeError, TF 2.3.0 made an op layer (tests/integration/reports/r76_custom_gradient_on_input.py).
_CUSTOM_GRADIENT = {"tensorflow.custom_gradient", "tensorflow.python.ops.custom_gradient.custom_gradient"}


def _custom_gradient_function(ctx: RuleContext, func: cst.BaseExpression) -> str | None:
    """The code naming `func` when it is a function made by `tf.custom_gradient`: a function of
    the file decorated with it, a name bound to `tf.custom_gradient(f)` in the same scope, or
    that call itself; else None."""
    if isinstance(func, cst.Call):
        return abbreviated(func) if ctx.qualified_name(func.func) in _CUSTOM_GRADIENT else None
    if not isinstance(func, cst.Name) or not ctx.is_reference(func):
        return None
    binding = ctx.binding(func.value)
    bound_by = binding.node if binding is not None and not binding.is_import else None
    if isinstance(bound_by, cst.FunctionDef):
        made = any(ctx.qualified_name(d.decorator) in _CUSTOM_GRADIENT for d in bound_by.decorators)
    else:
        value = assigned_value(ctx, func)
        made = isinstance(value, cst.Call) and ctx.qualified_name(value.func) in _CUSTOM_GRADIENT
    return func.value if made else None


class ControlFlowOnSymbolic(Rule):
    """`tf.cond`, `tf.while_loop` and `tf.map_fn` cannot take Keras symbolic inputs from TF 2.4.

    TF 2.3 turned such calls into op layers; TF 2.4 explicitly does not support control flow on
    `KerasTensor`s: it raises `TypeError` (a `KerasTensor` cannot become a graph tensor), hence the
    severity. Reported where one of these functions is applied to a name bound from
    `tf.keras.Input(...)` (or `keras.layers.Input(...)`) in the same scope, or computed from one
    (`h = Dense(8)(inputs)`); names with no such evidence are left alone. Not rewritten: the
    control flow belongs in a layer's `call`, which is a design change. `tf.reverse_sequence`,
    which is not control flow, is reported alike: it does not dispatch on `KerasTensor`s, and TF
    2.4 raises the same TypeError. So is a function made by `tf.custom_gradient` (a function of
    the file decorated with it, or a name bound to `tf.custom_gradient(f)`): the message says to
    apply it through a layer, `tf.keras.layers.Lambda(f)(inputs)`, which keeps its gradient
    (executed on TF 2.3.0 and 2.4.0).

    Reported: `inputs = tf.keras.Input((3,))` then `y = tf.cond(flag, lambda: inputs, lambda: -inputs)`
    Write instead:

        class Choose(tf.keras.layers.Layer):
            def call(self, x):
                return tf.cond(flag, lambda: x, lambda: -x)


        inputs = tf.keras.Input((3,))
        y = Choose()(inputs)

    Versions: unsupported from TF 2.4 (the Functional API change in TF 2.4's release notes).
    """

    code = "TF24214"
    name = "control-flow-on-symbolic"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # `_CONTROL_FLOW`, `_NOT_DISPATCHED` and `_CUSTOM_GRADIENT` (the lines making such a function)
    triggers = (word("cond", "while_loop", "map_fn", "reverse_sequence", "custom_gradient"),)
    requires = (*IMPORTS_TENSORFLOW, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualified = ctx.qualified_name(original.func)
        made = None
        if qualified not in _CONTROL_FLOW and qualified not in _NOT_DISPATCHED:
            made = _custom_gradient_function(ctx, original.func)
            if made is None:
                return updated
        names = [found for arg in original.args for found in symbolic_names(ctx, arg.value)]
        if not names:
            return updated
        name, evidence = names[0]
        why = f"{evidence[:1].upper()}{evidence[1:]}"
        if made is not None:
            ctx.report(
                original,
                f"`{made}`, a `tf.custom_gradient` function, on the Keras symbolic value `{name.value}` "
                f"raises TypeError from TF 2.4: apply it through a layer, "
                f"`tf.keras.layers.Lambda({made})({name.value})`.\n{why}. TF 2.4 applies to symbolic "
                "tensors only the TF functions that dispatch on them, and a `tf.custom_gradient` "
                "function does not; a `Lambda` layer calls it on real tensors, gradient included.",
                evidence=evidence,
            )
            return updated
        assert qualified is not None
        function = qualified.replace("tensorflow.", "tf.", 1)
        reason = (
            "does not support control flow on symbolic tensors"
            if qualified in _CONTROL_FLOW
            else f"applies to symbolic tensors only the TF functions that dispatch on them, and `{function}` does not"
        )
        ctx.report(
            original,
            f"`{function}` on the Keras symbolic value `{name.value}` raises TypeError from TF 2.4: "
            f"move it into a custom layer's `call`.\n{why}. TF 2.4 "
            f"{reason}. Move the `{function}` "
            f"into the `call` method of a custom `tf.keras.layers.Layer` and apply that layer to "
            f"`{name.value}`.",
            evidence=evidence,
        )
        return updated


RULES = (ControlFlowOnSymbolic(),)
