"""What the mixed-precision rules share: the module names, the experimental callee rule kind,
and small readers of literal arguments."""

from __future__ import annotations

import libcst as cst

from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.kinds import RenameSymbol

EXPERIMENTAL = "tensorflow.keras.mixed_precision.experimental"
STABLE = "tensorflow.keras.mixed_precision"
_LOSS_SCALE_MODULES = ("tensorflow.mixed_precision.experimental", "tensorflow.train.experimental")
_LOSS_SCALE_CLASSES = ("LossScale", "FixedLossScale", "DynamicLossScale")
_V1_MIXED_PRECISION = "tensorflow.compat.v1.mixed_precision"


def _is_callee(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` is the function of the call enclosing it (the call's rule handles it)."""
    ancestors = ctx.ancestors
    return bool(ancestors) and isinstance(ancestors[0], cst.Call) and ancestors[0].func is node


def _string(node: cst.BaseExpression) -> str | bytes | None:
    return node.evaluated_value if isinstance(node, cst.SimpleString) else None


def _number(node: cst.BaseExpression) -> float | None:
    """The value of a number written out (`32768`, `2 ** 15`, `128.0`), else None."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return float(node.evaluated_value)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Power, cst.Multiply)):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None:
            return None
        return left**right if isinstance(node.operator, cst.Power) else left * right
    return None


class _ExperimentalCallee(RenameSymbol):
    """A renamed symbol whose calls are rewritten by the rule's `leave_Call`; other references
    (`isinstance(x, mp.LossScaleOptimizer)`) and imports of it are renamed as `RenameSymbol` does."""

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if ctx.qualified_name(original) != self.old or _is_callee(ctx, original):
            return updated
        return super().leave_Attribute(ctx, original, updated)


_MODULE_MESSAGE = "`tf.keras.mixed_precision.experimental` is `tf.keras.mixed_precision` from TF 2.4."
