"""TF24220 `static-value-of-symbolic`: `tf.get_static_value` of a value computed from Keras symbolic
inputs is None from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext, sentence

from ._symbolic import EVIDENCE_IN_FILE, EVIDENCE_TRIGGERS, EVIDENCE_WORDS, expression_evidence

_STATIC_VALUE = frozenset({"tensorflow.get_static_value", "tensorflow.compat.v1.get_static_value"})


class StaticValueOfSymbolic(Rule):
    """`tf.get_static_value` of a value computed from Keras symbolic inputs is None from TF 2.4.

    TF 2.3 built a functional model in a graph, where `tf.get_static_value(tf.rank(inputs))`
    folded to the rank; from TF 2.4 `tf.rank(inputs)` of a `KerasTensor` is itself symbolic, and
    `tf.get_static_value` returns None (executed on TF 2.3.0 and 2.4.0; the release notes list
    "asserting on values like `tf.rank(...)` of symbolic inputs"). Read the static shape instead:
    `inputs.shape.rank`, `inputs.shape[i]`. Reported where an argument is visibly a Keras symbolic
    value or computed from one (`tf.rank(inputs)` with `inputs = tf.keras.Input(...)`). Not
    rewritten: which static property the code wants is not visible.

    Reported: `inputs = tf.keras.Input((3, 4))` then `rank = tf.get_static_value(tf.rank(inputs))`
    Write instead: `rank = inputs.shape.rank`

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24220"
    name = "static-value-of-symbolic"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = ("get_static_value",)
    requires = (*MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) not in _STATIC_VALUE or not original.args:
            return updated
        evidence = expression_evidence(ctx, original.args[0].value)
        if evidence is not None:
            ctx.report(
                original,
                f"`{abbreviated(original)}` is None from TF 2.4: the value is computed from Keras "
                "symbolic inputs; read their static shape (`x.shape.rank`, `x.shape[i]`) instead.\n"
                f"{sentence(evidence)}. From TF 2.4 TensorFlow ops on `KerasTensor`s "
                "give `KerasTensor`s, which have no constant value.",
                evidence=evidence,
            )
        return updated


RULES = (StaticValueOfSymbolic(),)
