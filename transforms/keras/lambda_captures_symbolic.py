"""TF24218 `lambda-captures-symbolic`: a `Lambda` layer's function cannot use another Keras
symbolic value from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import Pattern, word

from ._symbolic import EVIDENCE_TRIGGERS, EVIDENCE_WORDS, symbolic_names

_LAMBDA_LAYERS = {"tensorflow.keras.layers.Lambda"}


class LambdaCapturesSymbolic(Rule):
    """A `Lambda` layer's function cannot use another Keras symbolic value from TF 2.4.

    In TF 2.3 the function of `Lambda(lambda x: f(x, other))(inputs)` could use `other`, another
    `Input` or a tensor computed from one (Mask R-CNN's `K.shape(input_image)`), because both were
    tensors of one Keras graph. From TF 2.4 `other` is a `KerasTensor`, and calling the layer raises
    `TypeError: Could not build a TypeSpec for <KerasTensor ...>` (executed on TF 2.4.0). Pass it as
    an input of the layer instead. Not rewritten: the function's parameters change.

    Reported only where the captured name is visibly a Keras symbolic value: bound to
    `tf.keras.Input(...)` or computed from one, in the file.

    Reported: `image = tf.keras.Input((None, None, 3))` then `scaled = tf.keras.layers.Lambda(lambda x: x / tf.cast(tf.shape(image)[1], tf.float32))(boxes)`
    Write instead: `scaled = tf.keras.layers.Lambda(lambda xs: xs[0] / tf.cast(tf.shape(xs[1])[1], tf.float32))([boxes, image])`

    Versions: the Functional API change is in TF 2.4's release notes; executed on TF 2.3.0 (runs) and
    2.4.0 (raises).
    """

    code = "TF24218"
    name = "lambda-captures-symbolic"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (word("Lambda"),)
    # the layer as code (`layers.Lambda`, `Lambda(`, `Lambda as L`), not "Lambda" in prose
    requires = (
        "lambda",
        Pattern(r"\.[ \t]*Lambda\b|\bLambda[ \t]*\(|\bLambda[ \t]+as\b", "Lambda"),
        *IMPORTS_TENSORFLOW,
        EVIDENCE_WORDS,
    )
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.Call:
        if ctx.qualified_name(original.func) not in _LAMBDA_LAYERS or not original.args:
            return updated
        function = original.args[0].value
        if not isinstance(function, cst.Lambda):
            return updated
        captured = symbolic_names(ctx, function)
        if captured:
            name, evidence = captured[0]
            ctx.report(
                original,
                f"This `Lambda` captures the Keras symbolic value `{name.value}`, which TF 2.4 cannot do: "
                f"pass it as an input\n{sentence(evidence)}. TF 2.4 raises `TypeError: Could "
                f"not build a TypeSpec`: pass it as an input of the layer, `Lambda(lambda xs: ...)([x, "
                f"{name.value}])`, and use `xs[1]` in the function.",
                evidence=evidence,
            )
        return updated


RULES = (LambdaCapturesSymbolic(),)
