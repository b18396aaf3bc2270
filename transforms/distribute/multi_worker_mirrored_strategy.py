"""TF24107 `multi-worker-mirrored-strategy`: `tf.distribute.experimental.MultiWorkerMirroredStrategy` is
stable in TF 2.4 as `tf.distribute.MultiWorkerMirroredStrategy`, with a new signature."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    UnboundArguments,
    abbreviated,
    bind_arguments,
    code_for,
    evaluation_order_kept,
    rebuild_args,
)
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.edits import DropUse

from ._api import EXPERIMENTAL

_MWMS_OLD = f"{EXPERIMENTAL}.MultiWorkerMirroredStrategy"


_MWMS_NEW = "tensorflow.distribute.MultiWorkerMirroredStrategy"


_AUTO = {f"{EXPERIMENTAL}.CollectiveCommunication.AUTO", f"{EXPERIMENTAL}.CommunicationImplementation.AUTO"}
# The kinds of use of the experimental class, other than constructing it, that keep its
# constructions as they are (one `ctx.block` key each: the first such use is named).
_OTHER_USES = ("isinstance", "subclassed", "patched", "passed")


def _other_use(ctx: RuleContext, node: cst.CSTNode) -> tuple[str, str] | None:
    """How the reference `node` to the experimental class uses it, other than calling it: the
    kind (one of `_OTHER_USES`) and the use in words."""
    ancestors = ctx.ancestors
    parent = ancestors[0] if ancestors else None
    above = ancestors[1] if len(ancestors) > 1 else None
    if isinstance(parent, cst.Call) and parent.func is node:
        return None
    if isinstance(parent, cst.Attribute):
        assigned = isinstance(above, (cst.AssignTarget, cst.AugAssign)) or (
            isinstance(above, cst.AnnAssign) and above.target is parent
        )
        if parent.value is node and assigned:
            return "patched", f"has `{parent.attr.value}` assigned on it"
        return None
    if isinstance(parent, cst.Arg) and isinstance(above, cst.ClassDef):
        return "subclassed", f"is the base of `{above.name.value}`"
    call = next((a for a in ancestors if isinstance(a, cst.Call)), None)
    if isinstance(parent, (cst.Arg, cst.Element)) and call is not None:
        if isinstance(call.func, cst.Name) and call.func.value in ("isinstance", "issubclass"):
            return "isinstance", f"is checked with `{call.func.value}`"
        return "passed", f"is passed to `{abbreviated(call.func)}`"
    return "passed", "is bound to a name or passed on"


class MultiWorkerMirroredStrategy(Rule):
    """`tf.distribute.experimental.MultiWorkerMirroredStrategy` is stable in TF 2.4 as
    `tf.distribute.MultiWorkerMirroredStrategy`, with a new signature.

    The experimental constructor is `(communication, cluster_resolver)`; the stable one is
    `(cluster_resolver, communication_options)`, with the communication implementation inside a
    `CommunicationOptions`. The rewrite always uses keywords, in the new order (in the call's
    order where both arguments call functions, which then run in the order they did, or where the
    call holds comments, which stay with their arguments), and only for the arguments given; `communication_options` is dropped when the implementation is `AUTO` (the
    default). A `CollectiveCommunication` member passed in is renamed by TF24105 in the same run.
    Calls with `*args` / `**kwargs` are reported, not rewritten, and so are the constructions in a
    file that uses the experimental class otherwise (`isinstance`, a subclass, an attribute assigned
    on it, passed as a value): from TF 2.4 the stable class is the base of the experimental one, so
    an instance of it no longer matches those uses (executed on TF 2.4.0); the finding names them.

    Before: `tf.distribute.experimental.MultiWorkerMirroredStrategy(tf.distribute.experimental.CollectiveCommunication.RING)`
    After:  `tf.distribute.MultiWorkerMirroredStrategy(communication_options=tf.distribute.experimental.CommunicationOptions(implementation=tf.distribute.experimental.CollectiveCommunication.RING))` (and TF24105 renames `CollectiveCommunication`)

    Versions: `tf.distribute.MultiWorkerMirroredStrategy` and `CommunicationOptions` are exported since TF 2.4
    (tensorflow/_api/v2/distribute/__init__.py and distribute/experimental/__init__.py of the tensorflow-cpu
    2.4.0 wheel; absent in 2.3.0); the experimental name is still exported, deprecated, in 2.15.1.
    """

    code = "TF24107"
    name = "multi-worker-mirrored-strategy"
    new_since = "2.4"
    fix = Fix.SAFE
    severity = Severity.INFO
    triggers = ("MultiWorkerMirroredStrategy",)
    requires = IMPORTS_TENSORFLOW

    def _note_use(self, ctx: RuleContext, original: cst.Attribute | cst.Name) -> None:
        if ctx.qualified_name(original) == _MWMS_OLD:
            use = _other_use(ctx, original)
            if use is not None:
                ctx.block((self.code, use[0]), use[1])

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.Attribute:
        self._note_use(ctx, original)
        return updated

    def leave_Name(self, ctx: RuleContext, original: cst.Name, updated: cst.Name) -> cst.Name:
        if ctx.is_reference(original):
            self._note_use(ctx, original)
        return updated

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != _MWMS_OLD:
            return updated
        message = "`tf.distribute.experimental.MultiWorkerMirroredStrategy` is stable in TF 2.4"
        uses = [reason for use in _OTHER_USES if (reason := ctx.blocked_reason((self.code, use)))]
        if uses:
            ctx.report(
                original,
                f"{message}; not rewritten: this file also uses the experimental class otherwise\n"
                f"From TF 2.4 the stable class is the base of the experimental one, and this file uses the "
                f"experimental class otherwise (it {'; it '.join(uses)}), which an instance of the stable "
                "class would not match. Move those uses and this call to "
                "`tf.distribute.MultiWorkerMirroredStrategy` together.",
            )
            return updated
        try:
            bound = bind_arguments(original.args, ("communication", "cluster_resolver"))
        except UnboundArguments as problem:
            ctx.report(
                original,
                f"{message}: rewrite the call by hand; {problem}.\nWrite "
                "`tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=..., communication_options="
                "tf.distribute.experimental.CommunicationOptions(implementation=...))`.",
            )
            return updated
        updated_args = {o: u for o, u in zip(original.args, updated.args, strict=True)}
        new_args: list[tuple[str, cst.BaseExpression]] = []
        given: list[cst.BaseExpression] = []  # the call's value each new argument carries
        if "cluster_resolver" in bound:
            new_args.append(("cluster_resolver", updated_args[bound["cluster_resolver"]].value))
            given.append(updated_args[bound["cluster_resolver"]].value)
        communication = bound.get("communication")
        if communication is not None and ctx.qualified_name(communication.value) not in _AUTO:
            options = ctx.spell(f"{EXPERIMENTAL}.CommunicationOptions", like=original.func)
            if options is None:
                ctx.report(
                    original, f"{message}: no way to name TensorFlow in this file; rewrite it by hand."
                )
                return updated
            value = updated_args[communication].value
            new_args.append(
                (
                    "communication_options",
                    cst.Call(options, [cst.Arg(value, keyword=cst.Name("implementation"), equal=_equal())]),
                )
            )
            given.append(value)
        if (
            len(given) == 2
            and original.args.index(bound["communication"]) < original.args.index(bound["cluster_resolver"])
            and (not evaluation_order_kept(updated, given) or "#" in code_for(updated.with_changes(func=_F)))
        ):  # the call gives the communication first, and its calls or comments keep their order
            new_args.reverse()
        func = ctx.spell(_MWMS_NEW, like=original.func)
        edits = (
            [DropUse(original.func)]
            if isinstance(original.func, cst.Name)
            and func is not None
            and code_for(func) != original.func.value
            else []
        )
        if func is None:
            ctx.report(original, f"{message}: no way to name TensorFlow in this file; rewrite it by hand.")
            return updated
        replacement = updated.with_changes(func=func, args=rebuild_args(updated.args, new_args))
        if not new_args:
            replacement = replacement.with_changes(whitespace_before_args=cst.SimpleWhitespace(""))
        return (
            ctx.report(
                original,
                f"{message}: use `tf.distribute.MultiWorkerMirroredStrategy` with "
                "`cluster_resolver=` and `communication_options=`.",
                replacement=replacement,
                edits=edits,
            )
            or updated
        )


_F = cst.Name("f")


def _equal() -> cst.AssignEqual:
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )


RULES = (MultiWorkerMirroredStrategy(),)
