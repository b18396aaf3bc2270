"""TF24213 `symbolic-gradients`: Gradients with respect to a model's symbolic `.input(s)` / `.output(s)` do
not exist from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import Pattern

from ._symbolic import EVIDENCE_IN_FILE, EVIDENCE_TRIGGERS, EVIDENCE_WORDS, expression_evidence

_GRADIENT_FUNCTIONS = {
    "tensorflow.gradients",
    "tensorflow.keras.backend.gradients",
    "tensorflow.python.keras.backend.gradients",
}


class SymbolicGradients(Rule):
    """Gradients with respect to a model's symbolic `.input(s)` / `.output(s)` do not exist from
    TF 2.4.

    `model.inputs` and `model.outputs` are `KerasTensor`s in TF 2.4: `tf.gradients`,
    `K.gradients` and `tape.gradient` cannot differentiate them. Call the model on real tensors
    inside a `tf.GradientTape` and differentiate those. Matched on `tf.gradients(...)`,
    `tf.keras.backend.gradients(...)` and any `.gradient(...)` call in a file that imports
    TensorFlow, when an argument is visibly symbolic: the `.input(s)` / `.output(s)` of a model or
    layer, or a name bound to `tf.keras.Input(...)` (or computed from one) in the same scope. A
    gradient of a loss computed by calling the model on data (`model(x)`) is not reported. Not
    rewritten: the data to feed is not visible.

    Reported: `from tensorflow.keras import backend as K` then `grads = K.gradients(model.output, model.input)`
    Write instead: `with tf.GradientTape() as tape: tape.watch(x); y = model(x)` then `grads = tape.gradient(y, x)`

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24213"
    name = "symbolic-gradients"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = (Pattern(r"\bgradients?\b", "gradient"),)  # `.gradient(`, `gradients(`
    requires = (*MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        is_tape = (
            isinstance(func, cst.Attribute)
            and func.attr.value == "gradient"
            and not ctx.resolves_to_module_other_than_tensorflow(func)
        )
        if not is_tape and ctx.qualified_name(func) not in _GRADIENT_FUNCTIONS:
            return updated
        for arg in original.args:
            evidence = expression_evidence(ctx, arg.value)
            if evidence is not None:
                ctx.report(
                    original,
                    f"`{abbreviated(func)}` of a Keras symbolic tensor has no gradient from TF 2.4: use a "
                    f"`tf.GradientTape` on real data.\n{sentence(evidence)}. Call the model on "
                    "real data inside `with tf.GradientTape() as tape:` (`tape.watch(x)`, `y = model(x)`) "
                    "and take `tape.gradient(y, x)`.",
                    evidence=evidence,
                )
                return updated
        return updated


RULES = (SymbolicGradients(),)
