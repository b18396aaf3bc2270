"""TF24301 `mixed-precision-policy`: `tf.keras.mixed_precision.experimental.Policy(name[, loss_scale=L])`
is `tf.keras.mixed_precision.Policy(name)` from TF 2.4; this rule also moves the import of the
experimental module."""

from __future__ import annotations

import io
import tokenize

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW
from tf24migrate.rules.calls import (
    bind_or_report,
    code_for,
    keep_arguments,
)
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.edits import Edit, MoveBinding, TrackUses
from tf24migrate.rules.kinds import RenameSymbol
from tf24migrate.rules.names import bound_once_in_scope, dotted_name_of_module, normalize
from tf24migrate.rules.needles import word

from ._common import (
    _MODULE_MESSAGE,
    EXPERIMENTAL,
    STABLE,
    _ExperimentalCallee,
    _string,
    block_exported_imports,
    exported,
    loss_scale_read_line,
)
from .policy_loss_scale import LOSS_SCALE_READ, policy_loss_scale_read


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
    experimental module move to the stable module's import. A name assigned the module moves the
    same way (`mp = tf.keras.mixed_precision.experimental` becomes `mp =
    tf.keras.mixed_precision`), unless the name is bound elsewhere in its scope too (`else: mp =
    None`) or read above the assignment, in a function the pass has already left: such uses
    cannot be followed, so the assignment is only reported.
    An assignment in a class body is left alone: its uses (`Config.mp`, `self.mp`) are not followed.

    Before: `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.experimental.Policy("mixed_float16", loss_scale="dynamic")`
    After:  `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.Policy("mixed_float16")`

    An import moves only when every use of its name is migrated too (or stays valid): a use that
    its rule only reports (an unsafe `Policy(..., loss_scale=1024)` without `--unsafe-fixes`, a
    `LossScaleOptimizer` whose loss scale is not visible, an attribute with no stable equivalent, a
    suppressed line) keeps the experimental import, and the import's finding names those uses; the
    migrated uses are spelled through another TensorFlow import then. Nor does an import or an
    assignment whose name the module's `__all__` lists (or a computed `__all__` may list): other
    modules, out of sight, may use it with TF 2.3's arguments. In a file that reads a
    policy's `.loss_scale` (TF24309), `Policy(...)` calls are not migrated: the stable `Policy` has
    none; nor in a file reading a `.loss_scale` of a value it does not show (a parameter's), which
    may be a policy.

    Not rewritten: calls passing `*args` / `**kwargs` (reported), and a reference to the class that
    is not called, unless an `isinstance` or `issubclass` tests against it (the experimental class
    derives from the stable one): `make = ...experimental.Policy` may be called out of sight with a
    `loss_scale`, so it is reported, and the file's `Policy(...)` calls with it: an object of the
    stable class fails `isinstance` tests against the experimental one (executed on TF 2.4.0).

    Versions: `tf.keras.mixed_precision.Policy` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """

    takes = "no `loss_scale`"
    widens = "The stable `Policy` also matches the policies TF 2.4 gives layers, which have no `loss_scale`"
    differs = "fails `isinstance` tests against the experimental one and has no `loss_scale`"

    def __init__(self) -> None:
        super().__init__(
            code="TF24301",
            name="mixed-precision-policy",
            new_since="2.4",
            old_removed="2.9",
            old=f"{EXPERIMENTAL}.Policy",
            new=f"{STABLE}.Policy",
            severity=Severity.ERROR,
            # the module as a name, not in `set_mixed_precision_policy` or `mixed_precision_dtype`
            triggers=(word("mixed_precision"),),
            requires=(*IMPORTS_TENSORFLOW, "experimental"),  # every name it renames is under it
            message="`tf.keras.mixed_precision.experimental.Policy` is `tf.keras.mixed_precision.Policy` "
            "from TF 2.4.",
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

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        result = super().leave_ImportFrom(ctx, original, updated)
        block_exported_imports(ctx, original, EXPERIMENTAL)
        if isinstance(result, cst.ImportFrom):
            result = self._module.leave_ImportFrom(ctx, original, result)
        return result

    def leave_Import(
        self, ctx: RuleContext, original: cst.Import, updated: cst.Import
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        names = list(updated.names)
        for index, alias in enumerate(original.names):
            dotted = dotted_name_of_module(alias.name)
            if dotted is None or normalize(dotted) != EXPERIMENTAL:
                continue
            module = dotted.rsplit(".", 1)[0]
            moved = names[index].with_changes(name=cst.parse_expression(module))
            kept = ctx.blocked_reason(alias) or (
                exported(ctx, code_for(alias.asname.name)) if alias.asname is not None else None
            )
            if kept is not None:
                ctx.report(alias, f"{_MODULE_MESSAGE} The import stays as it is: {kept}; migrate them first.")
                continue
            edit = MoveBinding(alias, STABLE) if alias.asname is not None else TrackUses(alias)
            if ctx.report(alias, _MODULE_MESSAGE, replacement=moved, edits=[edit]) is not None:
                names[index] = moved
        return updated.with_changes(names=names)

    def leave_Assign(self, ctx: RuleContext, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        """`mp = tf.keras.mixed_precision.experimental` moves as its import would; not in a class
        body, whose attribute is read as `Config.mp` or `self.mp`, which the pass does not follow."""
        if (
            len(original.targets) != 1
            or type(original.targets[0].target) is not cst.Name
            or type(original.value) is not cst.Attribute  # `amp = mp` is a use of `mp`
            or ctx.qualified_name(original.value) != EXPERIMENTAL
            or _in_class_body(ctx)
        ):
            return updated
        kept = ctx.blocked_reason(original) or exported(ctx, original.targets[0].target.value)
        if kept is not None:
            ctx.report(
                original.value,
                f"{_MODULE_MESSAGE} The assignment stays as it is: {kept}; migrate them first.",
            )
            return updated
        name = original.targets[0].target.value
        if not bound_once_in_scope(ctx.source, name, ctx.source_line(original)):  # `else: mp = None`
            ctx.report(
                original.value,
                f"{_MODULE_MESSAGE} The assignment stays as it is: `{name}` is bound elsewhere in its scope "
                "too, and which of its values a use reads is out of sight; change them by hand.",
            )
            return updated
        above = _named_above(ctx.source, ctx.source_line(original), name)
        if above is not None:  # a function above may read it: the pass has left it already
            ctx.report(
                original.value,
                f"{_MODULE_MESSAGE} The assignment stays as it is: `{name}` is also named above it (line "
                f"{above}), where its uses cannot be followed; change them and the assignment by hand.",
            )
            return updated
        stable = ctx.spell(STABLE, like=original.value)
        if stable is None:  # the chain's own head names TensorFlow: never reached
            return updated
        edits: list[Edit] = [MoveBinding(original, STABLE), TrackUses(original)]
        moved = ctx.report(original.value, _MODULE_MESSAGE, replacement=stable, edits=edits)
        return updated if moved is None else updated.with_changes(value=moved)

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if original.attr.value == "loss_scale":
            read = policy_loss_scale_read(ctx, original)
            if read is not None:
                ctx.block(LOSS_SCALE_READ, f"this file reads a policy's `.loss_scale` ({read}; TF24309)")
            return updated
        return super().leave_Attribute(ctx, original, updated)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != self.old:
            return updated
        message = (
            "`Policy` is stable in TF 2.4 as `tf.keras.mixed_precision.Policy(name)`, without `loss_scale`"
        )
        constructions_kept = self.constructions_kept(ctx, original)
        if constructions_kept is not None:
            ctx.report(original, f"{message}: {constructions_kept}")
            return updated
        read = ctx.blocked_reason(LOSS_SCALE_READ) or _some_loss_scale_read(ctx.source)
        if read is not None:
            ctx.report(
                original,
                f"{message}: not migrated, since this file reads the policy's loss scale.\n"
                f"{sentence(read)}, which the stable `Policy` does not have: read "
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
                f"{message}: to keep the loss scale `{value}`, wrap the optimizer in a `LossScaleOptimizer`.\n"
                "Wrap the optimizer you pass to `compile` "
                f"in `tf.keras.mixed_precision.LossScaleOptimizer` (see TF24305 for the arguments that "
                f"match `{value}`); `loss_scale=None` under `'mixed_float16'` cannot be kept, since "
                "`compile` always wraps the optimizer for that policy.",
                replacement=replacement,
                fix=Fix.UNSAFE,
            )
            or updated
        )


def _some_loss_scale_read(source: str) -> str | None:
    """Where the file reads a `.loss_scale` of something it does not show (a parameter, a call's
    result): it may be a policy's, which the stable `Policy` does not have."""
    line = loss_scale_read_line(source)
    return None if line is None else f"line {line} reads a loss scale, maybe a policy's"


def _in_class_body(ctx: RuleContext) -> bool:
    """Whether the statement being left is in a class body (not in a function of it)."""
    scope = next(
        (a for a in ctx.ancestors if isinstance(a, (cst.ClassDef, cst.FunctionDef, cst.Lambda))), None
    )
    return isinstance(scope, cst.ClassDef)


def _named_above(source: str, line: int, name: str) -> int | None:
    """The first line above `line` whose code names `name` (not as an attribute, a comment or in
    a string), or None."""
    text = "".join(source.splitlines(keepends=True)[: line - 1])
    previous = ""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and token.string == name and previous != ".":
                return token.start[0]
            previous = token.string
    except (tokenize.TokenError, SyntaxError):  # cannot tell: as if it were named
        return 1
    return None


RULES = (MixedPrecisionPolicy(),)
