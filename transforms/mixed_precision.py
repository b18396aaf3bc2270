"""Mixed precision (TF243xx): `tf.keras.mixed_precision.experimental` to the stable API of
TF 2.4–2.15, the `LossScaleOptimizer` constructor mapping, and the TF 2 loss-scale classes.

The experimental module is gone from TF 2.9. The module import (`from
tensorflow.keras.mixed_precision import experimental as mp`) is rewritten by TF24301; each use
through it (`mp.Policy`, `mp.set_policy`, ...) is rewritten by the rule of that name, spelled
through the user's alias.
"""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    UnboundArguments,
    bind_arguments,
    bind_or_report,
    code_for,
    keep_arguments,
    lone_argument_on_one_line,
    rebuild_args,
    updated_values,
)
from tf24migrate.rules.edits import MoveBinding, TrackUses
from tf24migrate.rules.kinds import RenameSymbol
from tf24migrate.rules.names import dotted_name_of_module, normalize, tf_spelling

from ._loss_scale_subclasses import class_of_base, subclass_report
from ._text import assigned_value
from .policy_loss_scale import LOSS_SCALE_READ, policy_loss_scale_read

EXPERIMENTAL = "tensorflow.keras.mixed_precision.experimental"
STABLE = "tensorflow.keras.mixed_precision"
_LOSS_SCALE_MODULES = ("tensorflow.mixed_precision.experimental", "tensorflow.train.experimental")
_LOSS_SCALE_CLASSES = ("LossScale", "FixedLossScale", "DynamicLossScale")
_V1_MIXED_PRECISION = "tensorflow.compat.v1.mixed_precision"


def _is_callee(ctx, node: cst.CSTNode) -> bool:
    """Whether `node` is the function of the call enclosing it (the call's rule handles it)."""
    ancestors = ctx.ancestors
    return bool(ancestors) and isinstance(ancestors[0], cst.Call) and ancestors[0].func is node


def _string(node: cst.BaseExpression) -> str | None:
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

    def leave_Attribute(self, ctx, original: cst.Attribute, updated: cst.Attribute):
        if ctx.qualified_name(original) != self.old or _is_callee(ctx, original):
            return updated
        return super().leave_Attribute(ctx, original, updated)


# The experimental API still works on TF 2.4 to 2.8 (deprecated): messages say when it stops.
UNTIL_2_9 = "the experimental name still works up to TF 2.8 and raises from TF 2.9"
_MODULE_MESSAGE = (
    "`tf.keras.mixed_precision.experimental` is `tf.keras.mixed_precision` from TF 2.4 "
    "(the experimental module still works up to TF 2.8 and is gone from TF 2.9)."
)


class MixedPrecisionPolicy(_ExperimentalCallee):
    """`tf.keras.mixed_precision.experimental.Policy(name[, loss_scale=L])` is
    `tf.keras.mixed_precision.Policy(name)` from TF 2.4; this rule also moves the import of the
    experimental module.

    The stable `Policy` has no `loss_scale`. `L` is dropped when it is absent, or when it is
    `'dynamic'` with the name `'mixed_float16'` (the same behaviour: `compile` wraps the optimizer
    in a dynamic `LossScaleOptimizer` for that policy). Any other `L` makes the whole rewrite
    unsafe (applied only with `--unsafe-fixes`): the message says to keep the loss scale by
    wrapping the optimizer given to `compile` in a `LossScaleOptimizer`. `loss_scale=None` on
    `'mixed_float16'` (no loss scaling) has no equivalent through `compile`, which always wraps.

    The module imports `from tensorflow.keras.mixed_precision import experimental as X` and
    `import tensorflow.keras.mixed_precision.experimental as X` become
    `from tensorflow.keras import mixed_precision as X` (plain `... import mixed_precision` where X
    was `mixed_precision`) and `import tensorflow.keras.mixed_precision as X`; each use through X is
    rewritten by its own rule (TF24301–TF24305) and keeps the alias. Names imported from the
    experimental module move to the stable module's import.

    Before: `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.experimental.Policy("mixed_float16", loss_scale="dynamic")`
    After:  `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.Policy("mixed_float16")`

    An import moves only when every use of its name is migrated too (or stays valid): a use that
    its rule only reports (an unsafe `Policy(..., loss_scale=1024)` without `--unsafe-fixes`, a
    `LossScaleOptimizer` whose loss scale is not visible, an attribute with no stable equivalent, a
    suppressed line) keeps the experimental import, and the import's finding names those uses; the
    migrated uses are spelled through another TensorFlow import then. In a file that reads a
    policy's `.loss_scale` (TF24309), `Policy(...)` calls are not migrated: the stable `Policy` has
    none.

    Not rewritten: calls passing `*args` / `**kwargs` (reported).

    Versions: `tf.keras.mixed_precision.Policy` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """

    def __init__(self) -> None:
        super().__init__(
            code="TF24301",
            name="mixed-precision-policy",
            new_since="2.4",
            old_removed="2.9",
            old=f"{EXPERIMENTAL}.Policy",
            new=f"{STABLE}.Policy",
            severity=Severity.ERROR,
            triggers=("mixed_precision",),
            requires=(*IMPORTS_TENSORFLOW, "experimental"),  # every name it renames is under it
            message="`tf.keras.mixed_precision.experimental.Policy` is `tf.keras.mixed_precision.Policy` "
            f"from TF 2.4 ({UNTIL_2_9}).",
            doc=type(self).__doc__,
            uses_must_follow=True,
        )
        self._module = RenameSymbol(
            code=self.code,
            name=self.name,
            old=EXPERIMENTAL,
            new=STABLE,
            severity=self.severity,
            triggers=(),
            doc="",
            message=_MODULE_MESSAGE,
            uses_must_follow=True,
        )

    def leave_ImportFrom(self, ctx, original: cst.ImportFrom, updated: cst.ImportFrom):
        result = super().leave_ImportFrom(ctx, original, updated)
        if isinstance(result, cst.ImportFrom):
            result = self._module.leave_ImportFrom(ctx, original, result)
        return result

    def leave_Import(self, ctx, original: cst.Import, updated: cst.Import):
        names = list(updated.names)
        for index, alias in enumerate(original.names):
            if normalize(dotted_name_of_module(alias.name) or "") != EXPERIMENTAL:
                continue
            module = dotted_name_of_module(alias.name).rsplit(".", 1)[0]
            moved = names[index].with_changes(name=cst.parse_expression(module))
            kept = ctx.blocked_reason(alias)
            if kept is not None:
                ctx.report(alias, f"{_MODULE_MESSAGE} The import stays as it is: {kept}; migrate them first.")
                continue
            edit = MoveBinding(alias, STABLE) if alias.asname is not None else TrackUses(alias)
            if ctx.report(alias, _MODULE_MESSAGE, replacement=moved, edits=[edit]) is not None:
                names[index] = moved
        return updated.with_changes(names=names)

    def leave_Attribute(self, ctx, original: cst.Attribute, updated: cst.Attribute):
        if original.attr.value == "loss_scale":
            read = policy_loss_scale_read(ctx, original)
            if read is not None:
                ctx.block(LOSS_SCALE_READ, f"this file reads a policy's `.loss_scale` ({read}; TF24309)")
            return updated
        return super().leave_Attribute(ctx, original, updated)

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != self.old:
            return updated
        message = (
            "`Policy` is stable in TF 2.4 as `tf.keras.mixed_precision.Policy(name)`, without `loss_scale` "
            f"({UNTIL_2_9})"
        )
        read = ctx.blocked_reason(LOSS_SCALE_READ)
        if read is not None:
            ctx.report(
                original,
                f"{message}: not migrated, since {read}, which the stable `Policy` does not have: read "
                "the loss scale from the `LossScaleOptimizer` first, then migrate this call.",
            )
            return updated
        bound = bind_or_report(ctx, original, ("name", "loss_scale"), f"{message}: rewrite the call by hand")
        if bound is None:
            return updated
        func = ctx.spell(self.new, like=original.func)
        if func is None:
            ctx.report(original, f"{message}: this file has no way to name it; rewrite the call by hand.")
            return updated
        if "loss_scale" not in bound:
            replacement = updated.with_changes(func=func)
            return ctx.report(original, f"{message}.", replacement=replacement) or updated
        kept = [u for o, u in zip(original.args, updated.args, strict=True) if o is not bound["loss_scale"]]
        replacement = keep_arguments(updated, kept).with_changes(func=func)
        loss_scale = bound["loss_scale"].value
        name = bound.get("name")
        if name is not None and _string(name.value) == "mixed_float16" and _string(loss_scale) == "dynamic":
            return (
                ctx.report(
                    original,
                    f"{message}: `'mixed_float16'` gets a dynamic loss scale from `compile` anyway.",
                    replacement=replacement,
                )
                or updated
            )
        value = code_for(loss_scale)
        return (
            ctx.report(
                original,
                f"{message}: to keep the loss scale `{value}`, wrap the optimizer you pass to `compile` "
                f"in `tf.keras.mixed_precision.LossScaleOptimizer` (see TF24305 for the arguments that "
                f"match `{value}`); `loss_scale=None` under `'mixed_float16'` cannot be kept, since "
                "`compile` always wraps the optimizer for that policy.",
                replacement=replacement,
                fix=Fix.UNSAFE,
            )
            or updated
        )


SET_POLICY = RenameSymbol(
    code="TF24302",
    name="set-policy",
    new_since="2.4",
    old_removed="2.9",
    old=f"{EXPERIMENTAL}.set_policy",
    new=f"{STABLE}.set_global_policy",
    severity=Severity.ERROR,
    message="`tf.keras.mixed_precision.experimental.set_policy` is "
    f"`tf.keras.mixed_precision.set_global_policy` from TF 2.4 ({UNTIL_2_9}).",
    doc="""
    `tf.keras.mixed_precision.experimental.set_policy(p)` is
    `tf.keras.mixed_precision.set_global_policy(p)` from TF 2.4.

    One function with two names in TF 2.4; the experimental name is gone from TF 2.9. Uses through
    a module alias keep the alias (see TF24301); an imported `set_policy` is renamed in the import
    and at every use.

    Before: `from tensorflow.keras import mixed_precision` then `mixed_precision.experimental.set_policy("mixed_float16")`
    After:  `from tensorflow.keras import mixed_precision` then `mixed_precision.set_global_policy("mixed_float16")`

    Versions: `set_global_policy` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """,
)

GLOBAL_POLICY = RenameSymbol(
    code="TF24303",
    name="global-policy",
    new_since="2.4",
    old_removed="2.9",
    old=f"{EXPERIMENTAL}.global_policy",
    new=f"{STABLE}.global_policy",
    severity=Severity.ERROR,
    message="`tf.keras.mixed_precision.experimental.global_policy` is "
    f"`tf.keras.mixed_precision.global_policy` from TF 2.4 ({UNTIL_2_9}).",
    doc="""
    `tf.keras.mixed_precision.experimental.global_policy()` is
    `tf.keras.mixed_precision.global_policy()` from TF 2.4.

    One function with two names in TF 2.4; the experimental name is gone from TF 2.9.

    Before: `policy = tf.keras.mixed_precision.experimental.global_policy()`
    After:  `policy = tf.keras.mixed_precision.global_policy()`

    Versions: the stable `global_policy` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """,
)


class GetLayerPolicy(Rule):
    """`tf.keras.mixed_precision.experimental.get_layer_policy(layer)` is `layer.dtype_policy`
    from TF 2.4.

    TF 2.4 made `Layer.dtype_policy` public and kept `get_layer_policy` only in the experimental
    module, which TF 2.9 removed. The call becomes the property of its argument (in parentheses
    when the argument is not a simple name, attribute, call or subscript). A name imported from the
    experimental module is removed from the import.

    Before: `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.experimental.get_layer_policy(model.layers[0])`
    After:  `from tensorflow.keras import mixed_precision` then `policy = model.layers[0].dtype_policy`

    Not rewritten, reported: references that are not calls with one argument (for example
    `map(get_layer_policy, layers)`): write `layer.dtype_policy` there by hand.

    Versions: `Layer.dtype_policy` exists since TF 2.4 (tensorflow/python/keras/engine/base_layer.py of the
    tensorflow-cpu 2.4.0 wheel; absent in 2.3.0); `get_layer_policy` is exported in keras 2.8.0 and gone in
    keras 2.9.0 (keras/api/_v2/keras/mixed_precision/).
    """

    code = "TF24304"
    name = "get-layer-policy"
    new_since = "2.4"
    old_removed = "2.9"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = ("get_layer_policy",)
    requires = IMPORTS_TENSORFLOW
    _old = f"{EXPERIMENTAL}.get_layer_policy"
    _message = f"`get_layer_policy(layer)` is `layer.dtype_policy` from TF 2.4 ({UNTIL_2_9})"

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != self._old:
            return updated
        if (
            len(updated.args) != 1
            or updated.args[0].star
            or (updated.args[0].keyword is not None and updated.args[0].keyword.value != "layer")
        ):
            ctx.report(original, f"{self._message}: rewrite the call by hand.")
            return updated
        layer = updated.args[0].value
        if not isinstance(layer, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) and not layer.lpar:
            layer = layer.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        replacement = cst.Attribute(layer, cst.Name("dtype_policy"), lpar=updated.lpar, rpar=updated.rpar)
        return ctx.report(original, f"{self._message}.", replacement=replacement) or updated

    def leave_Attribute(self, ctx, original: cst.Attribute, updated: cst.Attribute):
        if ctx.qualified_name(original) == self._old and not _is_callee(ctx, original):
            ctx.report(original, f"{self._message}: use the property instead of the function here.")
        return updated

    def leave_Name(self, ctx, original: cst.Name, updated: cst.Name):
        if (
            ctx.is_reference(original)
            and ctx.qualified_name(original) == self._old
            and not _is_callee(ctx, original)
        ):
            ctx.report(original, f"{self._message}: use the property instead of the function here.")
        return updated

    def leave_ImportFrom(self, ctx, original: cst.ImportFrom, updated: cst.ImportFrom):
        if original.relative or isinstance(original.names, cst.ImportStar):
            return updated
        if normalize(dotted_name_of_module(original.module) or "") != EXPERIMENTAL:
            return updated
        removed = set()
        for alias in original.names:
            if dotted_name_of_module(alias.name) != "get_layer_policy":
                continue
            kept = ctx.blocked_reason(alias)
            if kept is not None:
                ctx.report(alias, f"{self._message}: the import stays as it is: {kept}; migrate them first.")
                continue
            message = f"{self._message}: the function is not imported any more."
            if (
                ctx.report(alias, message, replacement=cst.RemoveFromParent(), edits=[TrackUses(alias)])
                is not None
            ):
                removed.add(id(alias))
        if not removed:
            return updated
        kept_names = {dotted_name_of_module(a.name) for a in original.names if id(a) not in removed}
        names = [alias for alias in updated.names if dotted_name_of_module(alias.name) in kept_names]
        if not names:
            return cst.RemoveFromParent()
        if updated.rpar is None:
            names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(names=names)


_DEFAULT_INITIAL_SCALE = 2.0**15
_DEFAULT_GROWTH_STEPS = 2000.0
_BY_HAND = (
    "`'dynamic'` → `LossScaleOptimizer(opt)`; a number N or `FixedLossScale(N)` → "
    "`LossScaleOptimizer(opt, dynamic=False, initial_scale=N)`; `DynamicLossScale(initial_loss_scale=A, "
    "increment_period=B)` → `LossScaleOptimizer(opt, initial_scale=A, dynamic_growth_steps=B)`"
)


def _loss_scale_class(ctx, node: cst.BaseExpression) -> str | None:
    """`FixedLossScale` / `DynamicLossScale` / `LossScale` when `node` names a TF 2 loss-scale class."""
    name = ctx.qualified_name(node)
    if name is None:
        return None
    module, _, last = name.rpartition(".")
    return last if module in _LOSS_SCALE_MODULES and last in _LOSS_SCALE_CLASSES else None


def stable_loss_scale_arguments(
    ctx, loss_scale: cst.BaseExpression
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
                "the stable `LossScaleOptimizer` always multiplies by 2, and this `DynamicLossScale` "
                "has another (or an unknown) `multiplier`: there is no equivalent, keep a multiplier of 2"
            )
        result: list[tuple[str, cst.BaseExpression]] = []
        for old, new, default in (
            ("initial_loss_scale", "initial_scale", _DEFAULT_INITIAL_SCALE),
            ("increment_period", "dynamic_growth_steps", _DEFAULT_GROWTH_STEPS),
        ):
            if old in bound and _number(bound[old].value) != default:
                result.append((new, bound[old].value))
        return result
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
    call (a variable, a function result), a `DynamicLossScale` with a `multiplier` other than 2
    (the stable class has none), and calls passing `*args` / `**kwargs`. Other references
    (`isinstance(x, ...LossScaleOptimizer)`) are renamed, except the base of a class: `class
    Sub(...experimental.LossScaleOptimizer)` built as `Sub(opt, "dynamic")` would raise TypeError
    with the stable base alone, so the base stays and is reported, naming the constructions this
    file shows, to be changed with it (by hand, in every file that builds `Sub`).

    Versions: the stable `LossScaleOptimizer` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """

    def __init__(self) -> None:
        super().__init__(
            code="TF24305",
            name="loss-scale-optimizer",
            new_since="2.4",
            old_removed="2.9",
            old=f"{EXPERIMENTAL}.LossScaleOptimizer",
            new=f"{STABLE}.LossScaleOptimizer",
            severity=Severity.ERROR,
            message="`tf.keras.mixed_precision.experimental.LossScaleOptimizer` is "
            f"`tf.keras.mixed_precision.LossScaleOptimizer` from TF 2.4 ({UNTIL_2_9}).",
            doc=type(self).__doc__,
            uses_must_follow=True,
        )

    def leave_Attribute(self, ctx, original: cst.Attribute, updated: cst.Attribute):
        if ctx.qualified_name(original) == self.old and self._is_kept_base(ctx, original):
            return updated
        return super().leave_Attribute(ctx, original, updated)

    def leave_Name(self, ctx, original: cst.Name, updated: cst.Name):
        if ctx.is_reference(original) and ctx.qualified_name(original) == self.old:
            self._is_kept_base(ctx, original)
        return updated

    def _is_kept_base(self, ctx, base: cst.CSTNode) -> bool:
        """Report `base` when it is the base of a class: the base stays (see `subclass_report`)."""
        cls = class_of_base(ctx)
        if cls is not None:
            ctx.report(base, subclass_report(cls, ctx.source, self.message, _BY_HAND))
        return cls is not None

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != self.old:
            return updated
        message = f"`LossScaleOptimizer(optimizer, loss_scale)` is stable in TF 2.4 with new arguments ({UNTIL_2_9})"
        by_hand = f"{message}: rewrite the call by hand ({_BY_HAND})"
        bound = bind_or_report(ctx, original, ("optimizer", "loss_scale"), by_hand)
        if bound is None:
            return updated
        if "optimizer" not in bound or "loss_scale" not in bound:
            ctx.report(original, f"{by_hand}; the call passes no optimizer or no loss scale.")
            return updated
        new_values = updated_values(original, updated)
        arguments = stable_loss_scale_arguments(ctx, new_values[id(bound["loss_scale"])])
        func = ctx.spell(self.new, like=original.func)
        if isinstance(arguments, str) or func is None:
            reason = arguments if isinstance(arguments, str) else "this file has no way to name it"
            ctx.report(original, f"{by_hand}; {reason}.")
            return updated
        new_args = [(None, new_values[id(bound["optimizer"])]), *arguments]
        replacement = updated.with_changes(func=func, args=rebuild_args(updated.args, new_args))
        if len(new_args) < len(updated.args):
            replacement = lone_argument_on_one_line(replacement)
        return ctx.report(original, f"{message}.", replacement=replacement) or updated


class LossScaleClasses(Rule):
    """The TF 2 loss-scale classes `tf.mixed_precision.experimental.{LossScale, FixedLossScale,
    DynamicLossScale}` (also exported as `tf.train.experimental.*`) are
    `tf.compat.v1.mixed_precision.*` from TF 2.4.

    TF 2.4 deprecated the TF 2 names and TF 2.9 removed them; the `tf.compat.v1.mixed_precision`
    classes are the same and still exist. A loss scale passed to an experimental
    `LossScaleOptimizer` is folded into the stable optimizer's arguments by TF24305 instead, so it
    is left to that rule. Imported names move to the `tf.compat.v1.mixed_precision` import.

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
    triggers = _LOSS_SCALE_CLASSES
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

    def leave_Attribute(self, ctx, original: cst.Attribute, updated: cst.Attribute):
        rename = self._by_old.get(ctx.qualified_name(original) or "")
        if rename is None or _folded_by_loss_scale_optimizer(ctx, original):
            return updated
        return rename.leave_Attribute(ctx, original, updated)

    def leave_ImportFrom(self, ctx, original: cst.ImportFrom, updated: cst.ImportFrom):
        result = updated
        for rename in self._renames:
            if not isinstance(result, cst.ImportFrom):
                break
            result = rename.leave_ImportFrom(ctx, original, result)
        return result


def _folded_by_loss_scale_optimizer(ctx, node: cst.CSTNode) -> bool:
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


_LOSS_SCALE_OPTIMIZERS = (f"{EXPERIMENTAL}.LossScaleOptimizer", f"{STABLE}.LossScaleOptimizer")


def loss_scale_optimizer_evidence(ctx, receiver: cst.BaseExpression) -> str | None:
    """Why `receiver` is a `LossScaleOptimizer`, or None when the file does not show it: a
    construction (`LossScaleOptimizer(...)`, or a name bound to one in the same scope), or an
    enclosing `if isinstance(receiver, ...LossScaleOptimizer):`."""
    value = assigned_value(ctx, receiver) if isinstance(receiver, cst.Name) else receiver
    if isinstance(value, cst.Call) and ctx.qualified_name(value.func) in _LOSS_SCALE_OPTIMIZERS:
        return f"`{code_for(receiver)}` is built by `LossScaleOptimizer(...)`"
    text = code_for(receiver)
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
    `LossScaleOptimizer(...)` (stable or experimental, a name bound to one in the same scope), or
    checked by an enclosing `if isinstance(opt, ...LossScaleOptimizer):`. Other `loss_scale()`
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
    requires = ("loss_scale(", *IMPORTS_TENSORFLOW)

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "loss_scale" or original.args:
            return updated
        evidence = loss_scale_optimizer_evidence(ctx, func.value)
        if evidence is not None:
            ctx.report(
                original,
                f"A `LossScaleOptimizer`'s `loss_scale` is a tensor from TF 2.4, and calling it raises "
                f"TypeError ({evidence}): read `{code_for(func)}` without calling it (Keras 3: "
                f"`{code_for(func.value)}.dynamic_scale`).",
            )
        return updated


GRAPH_REWRITE = RenameSymbol(
    code="TF24308",
    name="graph-rewrite",
    new_since="2.4",
    old_removed="2.6",
    old="tensorflow.train.experimental.enable_mixed_precision_graph_rewrite",
    new=f"{_V1_MIXED_PRECISION}.enable_mixed_precision_graph_rewrite",
    severity=Severity.ERROR,
    fix=Fix.SAFE,
    message="`tf.train.experimental.enable_mixed_precision_graph_rewrite` is deprecated in TF 2.4 and "
    "gone from TF 2.6: the same rewrite is `tf.compat.v1.mixed_precision."
    "enable_mixed_precision_graph_rewrite`; consider the Keras policy API instead "
    "(`tf.keras.mixed_precision.set_global_policy('mixed_float16')`).",
    doc="""
    `tf.train.experimental.enable_mixed_precision_graph_rewrite` is deprecated in TF 2.4 and
    gone from TF 2.6: use
    `tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite`.

    The TF 1 name wraps the same optimizers the same way: a Keras `OptimizerV2` (what
    `tf.keras.optimizers.*` were up to TF 2.10, `tf.keras.optimizers.legacy.*` after) comes back
    inside a Keras `LossScaleOptimizer` (checked on TF 2.15), and it also accepts TF 1
    optimizers. The rewrite is safe: it keeps the behaviour wherever the old name ran. The
    better migration, by hand, is the Keras policy API:
    `tf.keras.mixed_precision.set_global_policy("mixed_float16")`. Imported names move to the
    `tf.compat.v1.mixed_precision` import.

    Before: `opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(opt)`
    After:  `opt = tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite(opt)`

    Both names reject the optimizers of Keras 2.11+ (`tf.keras.optimizers.SGD` on TF 2.11–2.15):
    pass a `tf.keras.optimizers.legacy` one there.

    Versions: `tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite` is exported since TF 2.4
    (tensorflow/_api/v2/compat/v1/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in
    2.3.0); the TF2 name is exported in 2.5.0 and gone in 2.6.0
    (tensorflow/_api/v2/train/experimental/__init__.py).
    """,
)

RULES = (
    MixedPrecisionPolicy(),
    SET_POLICY,
    GLOBAL_POLICY,
    GetLayerPolicy(),
    LossScaleOptimizer(),
    LossScaleClasses(),
    LossScaleCall(),
    GRAPH_REWRITE,
)
