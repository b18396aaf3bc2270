"""TF24110 `communication-keyword`: the stable `MultiWorkerMirroredStrategy` takes
`communication_options=`, not the experimental class's `communication=`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import keyword

from ._api import EXPERIMENTAL

_STABLE = "tensorflow.distribute.MultiWorkerMirroredStrategy"
_NO_SPACE = cst.AssignEqual(
    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
)


class CommunicationKeyword(Rule):
    """The stable `MultiWorkerMirroredStrategy` takes `communication_options=`, not the experimental
    class's `communication=`.

    Code moved to the stable name of TF 2.4 by hand, keeping the experimental keyword, raises
    `TypeError: __init__() got an unexpected keyword argument 'communication'` (executed on TF
    2.4.0). The fix wraps the implementation in a `CommunicationOptions`, which is what the
    experimental class does with it. No program runs it: the code it fixes is TF 2.4 code (the stable class
    is new in 2.4), which no TF 2.3 program holds.

    Before: `tf.distribute.MultiWorkerMirroredStrategy(communication=tf.distribute.experimental.CommunicationImplementation.RING)`
    After:  `tf.distribute.MultiWorkerMirroredStrategy(communication_options=tf.distribute.experimental.CommunicationOptions(implementation=tf.distribute.experimental.CommunicationImplementation.RING))`

    Versions: `tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=None,
    communication_options=None)` and `CommunicationOptions` exist since TF 2.4
    (tensorflow/python/distribute/collective_all_reduce_strategy.py of the tensorflow-cpu 2.4.0 wheel;
    executed on 2.4.0; both absent in 2.3.0).
    """

    code = "TF24110"
    name = "communication-keyword"
    new_since = "2.4"
    old_removed = "2.4"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = (keyword("communication"),)
    requires = ("MultiWorkerMirroredStrategy", *IMPORTS_TENSORFLOW)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != _STABLE:
            return updated
        for index, arg in enumerate(original.args):
            if arg.keyword is None or arg.keyword.value != "communication":
                continue
            message = (
                "The stable `MultiWorkerMirroredStrategy` takes `communication_options=`, not `communication=`\n"
                "Passing `communication=` raises TypeError from TF 2.4: pass "
                "`communication_options=tf.distribute.experimental.CommunicationOptions(implementation=...)`."
            )
            options = ctx.spell(f"{EXPERIMENTAL}.CommunicationOptions", like=original.func)
            if options is None:
                ctx.report(arg, message)
                return updated
            value = cst.Call(
                options,
                [cst.Arg(updated.args[index].value, keyword=cst.Name("implementation"), equal=_NO_SPACE)],
            )
            new_arg = updated.args[index].with_changes(keyword=cst.Name("communication_options"), value=value)
            args = [*updated.args[:index], new_arg, *updated.args[index + 1 :]]
            return ctx.report(arg, message, replacement=updated.with_changes(args=args)) or updated
        return updated


RULES = (CommunicationKeyword(),)
