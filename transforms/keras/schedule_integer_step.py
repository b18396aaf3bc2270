"""TF24230 `schedule-integer-step`: TF 2.4's `TensorBoard` callback calls a learning-rate schedule
with the integer step."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated, code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import FirstParameterUses, word

_SCHEDULES = (
    "tensorflow.keras.optimizers.schedules.",
    "tensorflow.optimizers.schedules.",
    "tensorflow.python.keras.optimizer_v2.learning_rate_schedule.",
)
# what makes the step a float: its reads inside these calls are safe
_CASTS = frozenset({"cast", "to_float", "convert_to_tensor", "float"})
# ops that take floating-point tensors only: an int64 step raises InvalidArgumentError
_FLOAT_ONLY = frozenset(
    {"rsqrt", "sqrt", "exp", "log", "log1p", "pow", "cos", "sin", "tanh", "sigmoid", "floor", "ceil", "erf"}
)


def _last_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return node.value if isinstance(node, cst.Name) else ""


def _is_int_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Integer)


def _reads(
    node: cst.CSTNode, step: str, path: tuple[cst.CSTNode, ...] = ()
) -> Iterator[tuple[cst.Name, tuple]]:
    """Each `Name` `step` under `node` in document order, with its ancestors (innermost last);
    not into nested functions, lambdas or classes, whose names are their own."""
    for child in node.children:
        if isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        if isinstance(child, cst.Name) and child.value == step:
            yield child, (*path, node)
        else:
            yield from _reads(child, step, (*path, node))


def _first_float_use(function: cst.FunctionDef, step: str) -> cst.CSTNode | None:
    """The first expression of `function` that needs `step` to be a float: arithmetic with it
    and anything but an integer literal (`step / warmup`, `step * 0.5`), or a float-only op of it
    (`tf.math.rsqrt(step)`). None once `step` is rebound (`step = tf.cast(step, tf.float32)`),
    and reads inside a cast do not count."""
    for name, ancestors in _reads(function.body, step):
        parent = ancestors[-1]
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign)) and (
            getattr(parent, "target", None) is name
        ):
            return None
        if any(isinstance(a, cst.Call) and _last_name(a.func) in _CASTS for a in ancestors):
            continue
        if isinstance(parent, cst.BinaryOperation):
            other = parent.right if parent.left is name else parent.left
            if not _is_int_literal(other):
                return parent
        call = ancestors[-2] if len(ancestors) >= 2 else None
        if (
            isinstance(parent, cst.Arg)
            and isinstance(call, cst.Call)
            and call.args[0] is parent
            and _last_name(call.func) in _FLOAT_ONLY
        ):
            return call
    return None


class ScheduleIntegerStep(Rule):
    """TF 2.4's `TensorBoard` callback calls a learning-rate schedule with the integer step.

    From TF 2.4, `tf.keras.callbacks.TensorBoard` logs the learning rate at the end of each epoch
    by calling the optimizer's schedule itself, with `optimizer.iterations`, an int64 variable.
    The optimizer passes the schedule a float step (`tf.cast(iterations, float32)`), and TF 2.3's
    callbacks never called it, so a `LearningRateSchedule` written for TF 2.3 may do float
    arithmetic on `step` as it comes: on TF 2.4, `fit(..., callbacks=[TensorBoard(...)])` then
    raises at the end of the first epoch, `TypeError` for `step / warmup_steps` with a float32
    tensor or `step * 0.5`, `InvalidArgumentError` for `tf.math.rsqrt(step)` (executed on TF 2.3.0
    and 2.4.0; the Transformer tutorial's schedule, TensorSpeech/TensorFlowASR#142,
    tensorflow-addons' `CyclicalLearningRate` before 0.12).

    Reported at the first such use in `__call__` of a class derived from a schedule of
    `tf.keras.optimizers.schedules`: arithmetic with the step and anything but an integer literal,
    or a float-only op of it (`rsqrt`, `sqrt`, `exp`, `log`, `pow`, ...), before the step is
    rebound; reads inside a cast (`tf.cast(step, tf.float32)`) are fine. Not rewritten: which
    float the schedule means is the author's (TF 2.3's optimizer passed its variables' dtype).

    Reported:

        class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
            def __call__(self, step):
                arg1 = tf.math.rsqrt(step)
                arg2 = step * (self.warmup_steps ** -1.5)
                return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)

    Write instead:

        class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
            def __call__(self, step):
                step = tf.cast(step, tf.float32)
                arg1 = tf.math.rsqrt(step)
                arg2 = step * (self.warmup_steps ** -1.5)
                return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)

    Versions: TF 2.4.0's `TensorBoard._collect_learning_rate` calls
    `lr_schedule(self.model.optimizer.iterations)` from `on_epoch_end`; TF 2.3.0's `TensorBoard`
    has no such method (tensorflow/python/keras/callbacks.py of the tensorflow-cpu 2.3.0 and 2.4.0
    wheels); `OptimizerV2._decayed_lr` casts `iterations` to the variables' dtype before calling
    the schedule in both (tensorflow/python/keras/optimizer_v2/optimizer_v2.py).
    """

    code = "TF24230"
    name = "schedule-integer-step"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # `def __call__(self, step)` and the lines naming `step` (not all of `__call__`'s)
    triggers = (FirstParameterUses("__call__"),)
    requires = (*IMPORTS_TENSORFLOW, word("LearningRateSchedule"))
    follows = ()

    def leave_FunctionDef(
        self, ctx: RuleContext, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.BaseStatement:
        if original.name.value != "__call__" or len(original.params.params) < 2:
            return updated
        ancestors = ctx.ancestors
        cls = ancestors[1] if len(ancestors) >= 2 and isinstance(ancestors[1], cst.ClassDef) else None
        base = next(
            (
                b.value
                for b in (cls.bases if cls is not None else ())
                if (ctx.qualified_name(b.value) or "").startswith(_SCHEDULES)
            ),
            None,
        )
        if cls is None or base is None:
            return updated
        step = original.params.params[1].name.value
        use = _first_float_use(original, step)
        if use is None:
            return updated
        ctx.report(
            use,
            f"`{cls.name.value}` gets the int64 step from TF 2.4's `TensorBoard`: cast `{step}` to a float "
            f"first (`{step} = tf.cast({step}, tf.float32)`).\n`{cls.name.value}` derives from "
            f"`{code_for(base)}`; TF 2.4's `TensorBoard` callback logs the learning rate at each epoch's "
            f"end by calling it with `optimizer.iterations`, an int64 variable (the optimizer passes a "
            f"float), and `{abbreviated(use)}` then raises.",
        )
        return updated


RULES = (ScheduleIntegerStep(),)
