"""TF24108 `parameter-server-strategy`: `tf.distribute.experimental.ParameterServerStrategy` names a
different class from TF 2.4: code written for TF 2.0–2.3 needs
`tf.compat.v1.distribute.experimental.ParameterServerStrategy`."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext

from ._api import EXPERIMENTAL

_PSS_OLD = f"{EXPERIMENTAL}.ParameterServerStrategy"


_PSS_V1 = "tensorflow.compat.v1.distribute.experimental.ParameterServerStrategy"
_TF_CONFIG_RESOLVER = "tensorflow.distribute.cluster_resolver.TFConfigClusterResolver"


class ParameterServerStrategy(Rule):
    """`tf.distribute.experimental.ParameterServerStrategy` names a different class from TF 2.4:
    code written for TF 2.0–2.3 needs `tf.compat.v1.distribute.experimental.ParameterServerStrategy`.

    TF 2.4 gave the name to the new `ParameterServerStrategyV2(cluster_resolver,
    variable_partitioner=None)`, meant for `ClusterCoordinator`; the TF 2.3 class is reachable
    only under `tf.compat.v1`. Called without a cluster resolver, as TF 2.3 code does, the new
    class raises `TypeError` (executed on TF 2.4.0), so the finding is an error. The fix keeps the
    old class and its arguments; where none is given, or `None` is written out, it passes
    `tf.distribute.cluster_resolver.TFConfigClusterResolver()`, the resolver the TF 2.3 class used
    by default (the `tf.compat.v1` class of TF 2.3 has none and ignores `TF_CONFIG`, executed on
    TF 2.3.0). It is unsafe (applied with `--unsafe-fixes`): the old class is a TF 1
    `StrategyV1`, which suits Estimator, its documented use, but review custom training loops
    (`strategy.run`), or move them to the new class with `ClusterCoordinator`.

    Before: `strategy = tf.distribute.experimental.ParameterServerStrategy()`
    After:  `strategy = tf.compat.v1.distribute.experimental.ParameterServerStrategy(tf.distribute.cluster_resolver.TFConfigClusterResolver())`

    No finding where the call already looks like TF 2.4 code: it passes `variable_partitioner=`,
    or the file mentions `ClusterCoordinator`. References that are not calls are left alone.

    Versions: `tf.compat.v1.distribute.experimental.ParameterServerStrategy` exists since TF 2.0
    (tensorflow_core/_api/v2/compat/v1/distribute/experimental/__init__.py of the tensorflow 2.0.0 wheel);
    from TF 2.4 the TF2 name is another class (`ParameterServerStrategyV2` in
    tensorflow/_api/v2/distribute/experimental/__init__.py of the tensorflow-cpu 2.4.0 wheel).
    """

    code = "TF24108"
    name = "parameter-server-strategy"
    new_since = "2.0"
    old_removed = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.ERROR
    triggers = ("ParameterServerStrategy",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != _PSS_OLD or "ClusterCoordinator" in ctx.source:
            return updated
        if any(
            arg.keyword is not None and arg.keyword.value == "variable_partitioner" for arg in original.args
        ):
            return updated
        message = (
            "`tf.distribute.experimental.ParameterServerStrategy` is a new class in TF 2.4: the TF 2.3 "
            "class is `tf.compat.v1.distribute.experimental.ParameterServerStrategy`.\nThe new class is "
            "for `ClusterCoordinator`; the old one is a TF 1 strategy: review its use outside Estimator."
        )
        func = ctx.spell(_PSS_V1, like=original.func)
        args: Sequence[cst.Arg] | None = updated.args
        given = [
            index
            for index, arg in enumerate(original.args)
            if arg.keyword is None or arg.keyword.value == "cluster_resolver"
        ]
        value = original.args[given[0]].value if given else None
        none_given = isinstance(value, cst.Name) and value.value == "None"  # `cluster_resolver=None`
        if not given or none_given:
            message += (
                " Called without a cluster resolver, the TF 2.4 class raises TypeError; the TF 2.3 class read "
                "`TF_CONFIG` through `TFConfigClusterResolver()`, which the fix passes."
            )
            resolver = ctx.spell(_TF_CONFIG_RESOLVER, like=original.func)
            if resolver is None:
                args = None
            elif none_given:  # the TF 1 class of TF 2.3 reads no `TF_CONFIG` for None
                args = list(updated.args)
                args[given[0]] = args[given[0]].with_changes(value=cst.Call(resolver))
            else:
                args = (cst.Arg(cst.Call(resolver)), *updated.args)
        if func is None or args is None:
            ctx.report(original, message)
            return updated
        return (
            ctx.report(original, message, replacement=updated.with_changes(func=func, args=args)) or updated
        )


RULES = (ParameterServerStrategy(),)
