"""TF24306 `loss-scale-classes`: The TF 2 loss-scale classes `tf.mixed_precision.experimental.{LossScale,
FixedLossScale, DynamicLossScale}` (also exported as `tf.train.experimental.*`) are
`tf.compat.v1.mixed_precision.*` from TF 2.4."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    UnboundArguments,
    bind_arguments,
    code_for,
)
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.kinds import RenameSymbol
from tf24migrate.rules.names import tf_spelling
from tf24migrate.rules.needles import word

from ._common import (
    _LOSS_SCALE_CLASSES,
    _LOSS_SCALE_MODULES,
    _V1_MIXED_PRECISION,
    EXPERIMENTAL,
)
from .loss_scale_call import loss_scale_optimizer_evidence
from .loss_scale_optimizer import stable_loss_scale_arguments


class LossScaleClasses(Rule):
    """The TF 2 loss-scale classes `tf.mixed_precision.experimental.{LossScale, FixedLossScale,
    DynamicLossScale}` (also exported as `tf.train.experimental.*`) are
    `tf.compat.v1.mixed_precision.*` from TF 2.4.

    TF 2.4 deprecated the TF 2 names and TF 2.9 removed them; the `tf.compat.v1.mixed_precision`
    classes are the same and still exist. A loss scale passed to an experimental
    `LossScaleOptimizer` is folded into the stable optimizer's arguments by TF24305 instead, so it
    is left to that rule. Imported names move to the `tf.compat.v1.mixed_precision` import.

    Reported, not renamed, where the rename would leave code that fails on TF 2.4 as before:
    `isinstance(opt.loss_scale, ...DynamicLossScale)` of a `LossScaleOptimizer` (its `loss_scale`
    is a tensor from TF 2.4: the check is False), and `name = ...DynamicLossScale(...)` where the
    file gives `name` to a `LossScaleOptimizer`, which copies it from TF 2.4 (`name.update(...)`
    no longer moves the optimizer's scale; executed on TF 2.3.0 and 2.4.0).

    Before: `loss_scale = tf.mixed_precision.experimental.DynamicLossScale(initial_loss_scale=1024)`
    After:  `loss_scale = tf.compat.v1.mixed_precision.DynamicLossScale(initial_loss_scale=1024)`

    Prefer the Keras optimizer's own loss scaling where you can: the TF 1 classes serve TF 1
    optimizers and graph rewrites.

    Versions: `tf.compat.v1.mixed_precision.{LossScale,FixedLossScale,DynamicLossScale}` are exported since TF
    2.4 (tensorflow/_api/v2/compat/v1/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in
    2.3.0); the TF2 names are exported in 2.8.0 and gone in 2.9.0 (tensorflow/_api/v2/mixed_precision/ and
    train/experimental/__init__.py).
    """

    code = "TF24306"
    name = "loss-scale-classes"
    new_since = "2.4"
    old_removed = "2.9"
    fix = Fix.SAFE
    severity = Severity.ERROR
    # the classes as names, not the `LossScale` of `LossScaleOptimizer` (TF24305's), whose
    # optimizers would have every use followed
    # and a `LossScaleOptimizer` line, whose binding `_changes_nothing` reads (`opt` in
    # `isinstance(opt.loss_scale, ...)`), but only the classes' names are followed
    triggers = (word(*_LOSS_SCALE_CLASSES), "LossScaleOptimizer")
    follows = (word(*_LOSS_SCALE_CLASSES),)
    requires = IMPORTS_TENSORFLOW

    def __init__(self) -> None:
        self._renames = [
            RenameSymbol(
                code=self.code,
                name=self.name,
                old=f"{module}.{cls}",
                new=f"{_V1_MIXED_PRECISION}.{cls}",
                severity=self.severity,
                doc="",
                message=f"`{tf_spelling(module)}.{cls}` is deprecated in TF 2.4 and removed in TF 2.9: use "
                f"`tf.compat.v1.mixed_precision.{cls}`.",
            )
            for module in _LOSS_SCALE_MODULES
            for cls in _LOSS_SCALE_CLASSES
        ]
        self._by_old = {rename.old: rename for rename in self._renames}

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        rename = self._by_old.get(ctx.qualified_name(original) or "")
        if rename is None or _folded_by_loss_scale_optimizer(ctx, original):
            return updated
        unchanged = _changes_nothing(ctx, original)
        if unchanged is not None:
            ctx.report(original, unchanged)
            return updated
        return rename.leave_Attribute(ctx, original, updated)

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        result: cst.BaseSmallStatement | cst.RemovalSentinel = updated
        for rename in self._renames:
            if not isinstance(result, cst.ImportFrom):
                break
            result = rename.leave_ImportFrom(ctx, original, result)
        return result


def _changes_nothing(ctx: RuleContext, node: cst.Attribute) -> str | None:
    """Why renaming the class `node` would leave code that fails on TF 2.4 exactly as before (the
    message to report instead), or None: `isinstance(opt.loss_scale, <node>)` of a
    `LossScaleOptimizer`, whose `loss_scale` is a tensor from TF 2.4, or `name = <node>(...)` where
    the file gives `name` to an experimental `LossScaleOptimizer`, which copies it from TF 2.4."""
    ancestors = ctx.ancestors
    cls = node.attr.value
    if len(ancestors) >= 2 and isinstance(ancestors[0], cst.Arg) and isinstance(ancestors[1], cst.Call):
        call = ancestors[1]
        if (
            isinstance(call.func, cst.Name)
            and call.func.value == "isinstance"
            and len(call.args) == 2
            and call.args[1] is ancestors[0]
        ):
            value = call.args[0].value
            if isinstance(value, cst.Attribute) and value.attr.value == "loss_scale":
                evidence = loss_scale_optimizer_evidence(ctx, value.value)
                if evidence is not None:
                    shown = code_for(value)
                    return (
                        f"`isinstance({shown}, {cls})` is False from TF 2.4 whatever the class's name: "
                        f"`{shown}` is a tensor; test `{code_for(value.value)}.dynamic` instead.\n"
                        f"A `LossScaleOptimizer`'s `loss_scale` is the current scale from TF 2.4 ({evidence}), "
                        f"so `tf.compat.v1.mixed_precision.{cls}` would change nothing here."
                    )
    if len(ancestors) >= 3 and isinstance(ancestors[0], cst.Call) and ancestors[0].func is node:
        assign = ancestors[1] if isinstance(ancestors[1], cst.Assign) else None
        targets = assign.targets if assign is not None else ()
        if len(targets) == 1 and isinstance(targets[0].target, cst.Name):
            name = targets[0].target.value
            if re.search(rf"LossScaleOptimizer\((?:[^()]|\([^()]*\))*\b{re.escape(name)}\b", ctx.source):
                return (
                    f"`{name}`, given to `LossScaleOptimizer`, is copied by the optimizer from TF 2.4: "
                    f"renaming `{cls}` changes nothing there; pass its arguments to the stable "
                    f"`LossScaleOptimizer` (TF24305 spells the call) and read the optimizer's `loss_scale`.\n"
                    f"From TF 2.4 `{name}.update(...)` no longer moves the optimizer's scale and `{name}()` "
                    "no longer reads it (TF 2.4's release notes, mixed precision)."
                )
    return None


def _folded_by_loss_scale_optimizer(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` is the class of a loss scale that TF24305 folds into a stable
    `LossScaleOptimizer` call: `LossScaleOptimizer(opt, <node>(...))`."""
    ancestors = ctx.ancestors
    if len(ancestors) < 3:
        return False
    call, arg, outer = ancestors[:3]
    if not (isinstance(call, cst.Call) and call.func is node and isinstance(arg, cst.Arg)):
        return False
    if (
        not isinstance(outer, cst.Call)
        or ctx.qualified_name(outer.func) != f"{EXPERIMENTAL}.LossScaleOptimizer"
    ):
        return False
    try:
        bound = bind_arguments(outer.args, ("optimizer", "loss_scale"))
    except UnboundArguments:
        return False
    return bound.get("loss_scale") is arg and not isinstance(stable_loss_scale_arguments(ctx, call), str)


RULES = (LossScaleClasses(),)
