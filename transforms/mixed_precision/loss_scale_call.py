"""TF24307 `loss-scale-call`: `opt.loss_scale()` raises on a `LossScaleOptimizer` from TF 2.4: read
`opt.loss_scale`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext

from .._text import assigned_value
from ._common import (
    EXPERIMENTAL,
    STABLE,
)

_LOSS_SCALE_OPTIMIZERS = (f"{EXPERIMENTAL}.LossScaleOptimizer", f"{STABLE}.LossScaleOptimizer")


def loss_scale_optimizer_evidence(ctx: RuleContext, receiver: cst.BaseExpression) -> str | None:
    """Why `receiver` is a `LossScaleOptimizer`, or None when the file does not show it: a
    construction (`LossScaleOptimizer(...)`, or a name bound to one in the same scope), `self` in a
    method of a subclass of it, or an enclosing `if isinstance(receiver, ...LossScaleOptimizer):`."""
    value = assigned_value(ctx, receiver) if isinstance(receiver, cst.Name) else receiver
    if isinstance(value, cst.Call) and ctx.qualified_name(value.func) in _LOSS_SCALE_OPTIMIZERS:
        return f"`{code_for(receiver)}` is built by `LossScaleOptimizer(...)`"
    text = code_for(receiver)
    if text == "self":
        for ancestor in ctx.ancestors:
            if isinstance(ancestor, cst.ClassDef):
                if any(ctx.qualified_name(base.value) in _LOSS_SCALE_OPTIMIZERS for base in ancestor.bases):
                    return f"`self` is a `{ancestor.name.value}`, a subclass of `LossScaleOptimizer`"
                break
    for ancestor in ctx.ancestors:
        if not isinstance(ancestor, cst.If):
            continue
        test = ancestor.test
        if (
            isinstance(test, cst.Call)
            and isinstance(test.func, cst.Name)
            and test.func.value == "isinstance"
            and len(test.args) == 2
            and code_for(test.args[0].value) == text
            and ctx.qualified_name(test.args[1].value) in _LOSS_SCALE_OPTIMIZERS
        ):
            return f"`{text}` is checked to be a `LossScaleOptimizer`"
    return None


class LossScaleCall(Rule):
    """`opt.loss_scale()` raises on a `LossScaleOptimizer` from TF 2.4: read `opt.loss_scale`.

    The 2.3 optimizer's `loss_scale` was a `LossScale` object, called to get the current scale;
    from TF 2.4 the `loss_scale` of both the stable and the experimental `LossScaleOptimizer` is
    the scale itself, a float32 tensor (Keras 2: TF 2.4–2.15 and tf_keras), and calling it raises
    `TypeError` (hence the severity). Keras 3 has neither: read `opt.dynamic_scale` there.

    Reported only where the receiver is visibly a `LossScaleOptimizer`: built by
    `LossScaleOptimizer(...)` (stable or experimental, a name bound to one in the same scope), `self`
    in a method of a class derived from it, or checked by an enclosing `if isinstance(opt,
    ...LossScaleOptimizer):`. Other `loss_scale()`
    calls (a `LossScale` object, the loss scalers of other libraries) are left alone, and so are
    files that do not import TensorFlow. Not rewritten: `loss_scale` may be a method of some
    other object bound to the same name.

    Reported: `opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(sgd, "dynamic")` then `scale = opt.loss_scale()`
    Write instead: `scale = opt.loss_scale`

    Versions: `LossScaleOptimizer.loss_scale` is a property from TF 2.4 (TF 2.4's release notes).
    """

    code = "TF24307"
    name = "loss-scale-call"
    changed_in = "2.4"
    old_removed = "2.4"  # calling the tensor raises
    fix = None
    severity = Severity.ERROR
    triggers = ("loss_scale(", "LossScaleOptimizer")
    # every receiver it reports is shown to be a `LossScaleOptimizer` (not `get_loss_scale(...)`)
    requires = ("loss_scale(", "LossScaleOptimizer", *IMPORTS_TENSORFLOW)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "loss_scale" or original.args:
            return updated
        evidence = loss_scale_optimizer_evidence(ctx, func.value)
        if evidence is not None:
            ctx.report(
                original,
                f"`{code_for(func)}()` raises TypeError from TF 2.4: read `{code_for(func)}` without "
                f"calling it.\nA `LossScaleOptimizer`'s `loss_scale` is a tensor from TF 2.4 ({evidence}); "
                f"under Keras 3 read `{code_for(func.value)}.dynamic_scale`.",
                evidence=evidence,
            )
        return updated


RULES = (LossScaleCall(),)
