"""TF24108 `parameter-server-strategy`: `tf.distribute.experimental.ParameterServerStrategy` names a
different class from TF 2.4: code written for TF 2.0–2.3 needs
`tf.compat.v1.distribute.experimental.ParameterServerStrategy`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext

from ._api import EXPERIMENTAL

_PSS_OLD = f"{EXPERIMENTAL}.ParameterServerStrategy"


_PSS_V1 = "tensorflow.compat.v1.distribute.experimental.ParameterServerStrategy"


class ParameterServerStrategy(Rule):
    """`tf.distribute.experimental.ParameterServerStrategy` names a different class from TF 2.4:
    code written for TF 2.0–2.3 needs `tf.compat.v1.distribute.experimental.ParameterServerStrategy`.

    TF 2.4 gave the name to the new `ParameterServerStrategyV2(cluster_resolver,
    variable_partitioner=None)`, meant for `ClusterCoordinator`; the TF 2.3 class is reachable
    only under `tf.compat.v1`. The fix keeps the old class and its arguments. It is unsafe
    (applied with `--unsafe-fixes`): the old class is a TF 1 `StrategyV1`, which suits Estimator,
    its documented use, but review custom training loops (`strategy.run`), or move them to the
    new class with `ClusterCoordinator`.

    Before: `strategy = tf.distribute.experimental.ParameterServerStrategy()`
    After:  `strategy = tf.compat.v1.distribute.experimental.ParameterServerStrategy()`

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
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.WARNING
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
        if func is None:
            ctx.report(original, message)
            return updated
        return ctx.report(original, message, replacement=updated.with_changes(func=func)) or updated


RULES = (ParameterServerStrategy(),)
