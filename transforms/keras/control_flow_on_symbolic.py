"""TF24214 `control-flow-on-symbolic`: `tf.cond`, `tf.while_loop` and `tf.map_fn` (and
`tf.reverse_sequence`, which does not dispatch) cannot take Keras symbolic inputs from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import word

from ._symbolic import EVIDENCE_TRIGGERS, EVIDENCE_WORDS, symbolic_names

_CONTROL_FLOW = {"tensorflow.cond", "tensorflow.while_loop", "tensorflow.map_fn"}
# TF functions that are not control flow but do not dispatch on `KerasTensor`s either: TF 2.4.0
# raises TypeError ("Cannot convert a symbolic Keras input/output to a numpy array"), TF 2.3.0 made
# an op layer (both run: tests/integration/reports/r77_reverse_sequence_on_input.py).
_NOT_DISPATCHED = {"tensorflow.reverse_sequence"}


class ControlFlowOnSymbolic(Rule):
    """`tf.cond`, `tf.while_loop` and `tf.map_fn` cannot take Keras symbolic inputs from TF 2.4.

    TF 2.3 turned such calls into op layers; TF 2.4 explicitly does not support control flow on
    `KerasTensor`s: it raises `TypeError` (a `KerasTensor` cannot become a graph tensor), hence the
    severity. Reported where one of these functions is applied to a name bound from
    `tf.keras.Input(...)` (or `keras.layers.Input(...)`) in the same scope, or computed from one
    (`h = Dense(8)(inputs)`); names with no such evidence are left alone. Not rewritten: the
    control flow belongs in a layer's `call`, which is a design change. `tf.reverse_sequence`,
    which is not control flow, is reported alike: it does not dispatch on `KerasTensor`s, and TF
    2.4 raises the same TypeError.

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
    # `_CONTROL_FLOW` and `_NOT_DISPATCHED`
    triggers = (word("cond", "while_loop", "map_fn", "reverse_sequence"),)
    requires = (*IMPORTS_TENSORFLOW, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualified = ctx.qualified_name(original.func)
        if qualified not in _CONTROL_FLOW and qualified not in _NOT_DISPATCHED:
            return updated
        names = [found for arg in original.args for found in symbolic_names(ctx, arg.value)]
        if names:
            function = qualified.replace("tensorflow.", "tf.", 1)
            name, evidence = names[0]
            why = (
                "does not support control flow on symbolic tensors"
                if qualified in _CONTROL_FLOW
                else f"applies to symbolic tensors only the TF functions that dispatch on them, and `{function}` does not"
            )
            ctx.report(
                original,
                f"`{function}` on the Keras symbolic value `{name.value}` raises TypeError from TF 2.4: "
                f"move it into a custom layer's `call`.\n{evidence[:1].upper()}{evidence[1:]}. TF 2.4 "
                f"{why}. Move the `{function}` "
                f"into the `call` method of a custom `tf.keras.layers.Layer` and apply that layer to "
                f"`{name.value}`.",
                evidence=evidence,
            )
        return updated


RULES = (ControlFlowOnSymbolic(),)
