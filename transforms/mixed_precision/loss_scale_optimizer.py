"""TF24305 `loss-scale-optimizer`: `tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt,
loss_scale)` is `tf.keras.mixed_precision.LossScaleOptimizer(opt, ...)` from TF 2.4, with new arguments."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.calls import (
    UnboundArguments,
    bind_arguments,
    bind_or_report,
    code_for,
    evaluation_order_kept,
    lone_argument_on_one_line,
    rebuild_args,
    updated_values,
)
from tf24migrate.rules.context import RuleContext, sentence

from .._text import assigned_value
from ._common import (
    _LOSS_SCALE_CLASSES,
    _LOSS_SCALE_MODULES,
    EXPERIMENTAL,
    STABLE,
    _ExperimentalCallee,
    _number,
    _string,
)
from ._loss_scale_subclasses import class_of_base, subclass_report

_DEFAULT_INITIAL_SCALE = 2.0**15


_DEFAULT_GROWTH_STEPS = 2000.0


_BY_HAND = (
    "`'dynamic'` → `LossScaleOptimizer(opt)`; a number N or `FixedLossScale(N)` → "
    "`LossScaleOptimizer(opt, dynamic=False, initial_scale=N)`; `DynamicLossScale(initial_loss_scale=A, "
    "increment_period=B)` → `LossScaleOptimizer(opt, initial_scale=A, dynamic_growth_steps=B)`; a "
    "`DynamicLossScale` whose `multiplier` is not 2 has no equivalent (TF 2.4 raises ValueError for it, "
    "in the experimental optimizer too): keep a multiplier of 2"
)


def _loss_scale_class(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """`FixedLossScale` / `DynamicLossScale` / `LossScale` when `node` names a TF 2 loss-scale class."""
    name = ctx.qualified_name(node)
    if name is None:
        return None
    module, _, last = name.rpartition(".")
    return last if module in _LOSS_SCALE_MODULES and last in _LOSS_SCALE_CLASSES else None


def stable_loss_scale_arguments(
    ctx: RuleContext, loss_scale: cst.BaseExpression
) -> list[tuple[str, cst.BaseExpression]] | str:
    """The keywords of the stable `LossScaleOptimizer` that mean what the experimental
    `loss_scale` argument meant, or why there are none (a sentence)."""
    if _string(loss_scale) == "dynamic":
        return []
    if _number(loss_scale) is not None:
        return [("dynamic", cst.Name("False")), ("initial_scale", loss_scale)]
    if not isinstance(loss_scale, cst.Call):
        return "the kind of `loss_scale` is not visible here"
    kind = _loss_scale_class(ctx, loss_scale.func)
    if kind == "FixedLossScale":
        try:
            bound = bind_arguments(loss_scale.args, ("loss_scale_value",))
        except UnboundArguments as problem:
            return f"the `FixedLossScale(...)` call cannot be read: {problem}"
        if "loss_scale_value" not in bound:
            return "the `FixedLossScale(...)` call passes no value"
        return [("dynamic", cst.Name("False")), ("initial_scale", bound["loss_scale_value"].value)]
    if kind == "DynamicLossScale":
        try:
            bound = bind_arguments(loss_scale.args, ("initial_loss_scale", "increment_period", "multiplier"))
        except UnboundArguments as problem:
            return f"the `DynamicLossScale(...)` call cannot be read: {problem}"
        if "multiplier" in bound and _number(bound["multiplier"].value) != 2:
            return (
                "the stable optimizer always multiplies by 2, this `DynamicLossScale` by "
                "another (or an unknown) `multiplier`: no equivalent, use a multiplier of 2"
            )
        result: list[tuple[str, cst.BaseExpression]] = []
        for old, new, default in (
            ("initial_loss_scale", "initial_scale", _DEFAULT_INITIAL_SCALE),
            ("increment_period", "dynamic_growth_steps", _DEFAULT_GROWTH_STEPS),
        ):
            if old in bound and _number(bound[old].value) != default:
                result.append((new, bound[old].value))
        # in the order the call gives them, which evaluates them in that order
        given = [id(arg.value) for arg in loss_scale.args]
        return sorted(result, key=lambda pair: given.index(id(pair[1])))
    return "the kind of `loss_scale` is not visible here"


class LossScaleOptimizer(_ExperimentalCallee):
    """`tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt, loss_scale)` is
    `tf.keras.mixed_precision.LossScaleOptimizer(opt, ...)` from TF 2.4, with new arguments.

    The mapping is the one TF 2.4's own compatibility class applies (`LossScaleOptimizerV1`):
    - `'dynamic'` → `LossScaleOptimizer(opt)`;
    - a number N, or `FixedLossScale(N)` → `LossScaleOptimizer(opt, dynamic=False, initial_scale=N)`;
    - `DynamicLossScale(initial_loss_scale=A, increment_period=B)` →
      `LossScaleOptimizer(opt, initial_scale=A, dynamic_growth_steps=B)`, each omitted when absent
      or at its default (2 ** 15 and 2000).
    The arguments may be positional or `optimizer=` / `loss_scale=`; the optimizer comes out
    positional (the stable keyword is `inner_optimizer`). `FixedLossScale` and `DynamicLossScale`
    are recognised as `tf.mixed_precision.experimental.*` and `tf.train.experimental.*`.
    The rewrite is required for Keras 3 too, which would silently take `'dynamic'` as
    `initial_scale`; note that Keras 3 rejects `dynamic=False` (use the inner optimizer's
    `loss_scale_factor=` there).

    Before: `opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt, tf.mixed_precision.experimental.FixedLossScale(128))`
    After:  `opt = tf.keras.mixed_precision.LossScaleOptimizer(opt, dynamic=False, initial_scale=128)`

    Not rewritten, reported with the mapping above: a loss scale whose kind is not visible in the
    call (a variable, a function result; a name bound to a `DynamicLossScale(...)` or
    `FixedLossScale(...)` in the same scope gets the stable call spelled out: the optimizer copies
    that loss scale from TF 2.4, so the name's later uses no longer see its scale), a `DynamicLossScale` with a `multiplier` other than 2
    (the stable class has none), calls passing `*args` / `**kwargs`, and calls giving the loss
    scale before the optimizer where both call functions (`loss_scale=FixedLossScale(scale()),
    optimizer=make()`: the stable call takes the optimizer first, so the calls would run in
    another order). A reference that is not
    called is renamed where the class is tested against (`isinstance(x,
    ...LossScaleOptimizer)`, `issubclass`: the experimental class derives from the stable one),
    and reported anywhere else, where it may be called out of sight with TF 2.3's arguments (`LSO
    = ...LossScaleOptimizer`, `functools.partial(...)`). The base of a class is reported naming
    the constructions this file shows: `class Sub(...experimental.LossScaleOptimizer)` built as
    `Sub(opt, "dynamic")` would raise TypeError with the stable base alone, so base and
    constructions change together (by hand, in every file that builds `Sub`). In a file that reads
    a loss scale, a test against the class is kept too: the stable class also matches the optimizer
    TF 2.4's `compile` wraps under `mixed_float16`, whose `loss_scale` is a tensor, so the code the
    test guards would read it wrongly (executed on TF 2.4.0). An import of the class whose name
    the module's `__all__` lists (or a computed `__all__` may list) stays too: other modules may
    call it with TF 2.3's arguments (`LossScaleOptimizer(opt, 128)` raises TypeError on the
    stable class). Where the file keeps
    the experimental class so (reported, or a base), its constructions are reported, not
    rewritten: the stable class does not derive from the experimental one, so an object built
    from it fails `isinstance` tests against the name kept (executed on TF 2.4.0).

    Versions: the stable `LossScaleOptimizer` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """

    widens = (
        "The stable `LossScaleOptimizer` also matches the one TF 2.4's `compile` wraps an optimizer in "
        "under `mixed_float16`, whose `loss_scale` is a tensor, not TF 2.3's loss-scale object"
    )

    def __init__(self) -> None:
        super().__init__(
            code="TF24305",
            name="loss-scale-optimizer",
            new_since="2.4",
            old_removed="2.9",
            old=f"{EXPERIMENTAL}.LossScaleOptimizer",
            new=f"{STABLE}.LossScaleOptimizer",
            # a `DynamicLossScale(...)` / `FixedLossScale(...)` bound to a name passed as `loss_scale`
            # is read (its arguments)
            triggers=("LossScaleOptimizer", "DynamicLossScale", "FixedLossScale"),
            severity=Severity.ERROR,
            message="`tf.keras.mixed_precision.experimental.LossScaleOptimizer` is "
            "`tf.keras.mixed_precision.LossScaleOptimizer` from TF 2.4.",
            doc=type(self).__doc__,
            uses_must_follow=True,
        )

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if ctx.qualified_name(original) == self.old and self._is_kept_base(ctx, original):
            return updated
        return super().leave_Attribute(ctx, original, updated)

    def leave_Name(self, ctx: RuleContext, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if ctx.is_reference(original) and ctx.qualified_name(original) == self.old:
            self._is_kept_base(ctx, original)
        return updated

    def _is_kept_base(self, ctx: RuleContext, base: cst.CSTNode) -> bool:
        """Report `base` when it is the base of a class: the base stays (see `subclass_report`)."""
        cls = class_of_base(ctx)
        if cls is not None:
            ctx.report(base, subclass_report(cls, ctx.source, self.message, _BY_HAND))
            self.keep_constructions(
                ctx, f"line {ctx.source_line(base)} makes `{cls.name.value}` derive from it"
            )
        return cls is not None

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != self.old:
            return updated
        message = "`LossScaleOptimizer(optimizer, loss_scale)` is stable in TF 2.4 with new arguments"
        kept = self.constructions_kept(ctx, original)
        if kept is not None:
            ctx.report(original, f"{message}: {kept}")
            return updated
        by_hand = f"{message}: rewrite the call by hand"
        bound = bind_or_report(ctx, original, ("optimizer", "loss_scale"), f"{by_hand}\n{_BY_HAND}.")
        if bound is None:
            return updated
        if "optimizer" not in bound or "loss_scale" not in bound:
            ctx.report(original, f"{by_hand}; the call passes no optimizer or no loss scale.\n{_BY_HAND}.")
            return updated
        new_values = updated_values(original, updated)
        arguments = stable_loss_scale_arguments(ctx, new_values[bound["loss_scale"]])
        named = bound["loss_scale"].value
        func = ctx.spell(self.new, like=original.func)
        if isinstance(arguments, str) and isinstance(named, cst.Name):
            value = assigned_value(ctx, named)
            kind = _loss_scale_class(ctx, value.func) if isinstance(value, cst.Call) else None
            if isinstance(value, cst.Call) and kind in ("DynamicLossScale", "FixedLossScale"):
                evidence = f"`{named.value}` is a `{kind}(...)`"
                reason = stable_loss_scale_arguments(ctx, value)
                if isinstance(reason, str):  # the name's loss scale has no equivalent
                    ctx.report(
                        original,
                        f"{by_hand}; {{evidence}}\n{sentence(reason)}. {_BY_HAND}.",
                        evidence=evidence,
                    )
                    return updated
                stable = updated.with_changes(
                    func=func or cst.Name("LossScaleOptimizer"),
                    args=rebuild_args(updated.args, [(None, new_values[bound["optimizer"]]), *reason]),
                )
                ctx.report(
                    original,
                    f"{message}; {{evidence}}: write `{code_for(stable)}`.\nNot rewritten: the optimizer "
                    f"copies `{named.value}` from TF 2.4 (in the experimental optimizer too), so its later "
                    f"uses (`{named.value}.update(...)`, `{named.value}()`) no longer see the optimizer's "
                    f"scale: read the optimizer's `loss_scale` instead, and drop `{named.value}`.",
                    evidence=evidence,
                )
                return updated
        if isinstance(arguments, str) or func is None:
            reason = arguments if isinstance(arguments, str) else "this file has no way to name it"
            ctx.report(original, f"{by_hand}; {reason}.\n{_BY_HAND}.")
            return updated
        new_args = [(None, new_values[bound["optimizer"]]), *arguments]
        if not evaluation_order_kept(updated, [value for _, value in new_args]):
            ctx.report(
                original,
                f"{by_hand}; the stable call takes the optimizer first, which would change the order "
                f"its arguments' calls run in.\n{_BY_HAND}.",
            )
            return updated
        replacement = updated.with_changes(func=func, args=rebuild_args(updated.args, new_args))
        if len(new_args) < len(updated.args):
            replacement = lone_argument_on_one_line(replacement)
        return ctx.report(original, f"{message}.", replacement=replacement) or updated


RULES = (LossScaleOptimizer(),)
