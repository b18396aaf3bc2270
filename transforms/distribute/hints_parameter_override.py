"""TF24109 `hints-parameter-override`: A method that overrides a TF reduction with an `experimental_hints`
parameter must rename it `options`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import RuleContext

_REDUCTION_METHODS = {
    "reduce_implementation",
    "batch_reduce_implementation",
    "reduce_to",
    "batch_reduce_to",
    "all_reduce",
}


class HintsParameterOverride(Rule):
    """A method that overrides a TF reduction with an `experimental_hints` parameter must rename it
    `options`.

    TF 2.4 calls `reduce_implementation`, `batch_reduce_implementation`, `reduce_to`,
    `batch_reduce_to` and `all_reduce` with `options=`, so a subclass of `CrossDeviceOps`,
    `StrategyExtended` or `ReplicaContext` that still names the parameter `experimental_hints`
    fails with `TypeError`. Not rewritten: the body's uses of the parameter must follow, and a
    method of that name may belong to a class unrelated to TensorFlow.

    Reported: `def reduce_implementation(self, reduce_op, value, destinations, experimental_hints): ...`
    Write instead: `def reduce_implementation(self, reduce_op, value, destinations, options): ...`

    Versions: TensorFlow passes `options` instead of `experimental_hints` from TF 2.4
    (tensorflow/python/distribute/cross_device_ops.py and distribute_lib.py of the tensorflow-cpu 2.3.0 and
    2.4.0 wheels).
    """

    code = "TF24109"
    name = "hints-parameter-override"
    new_since = "2.4"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = ("experimental_hints",)

    def leave_FunctionDef(
        self, ctx: RuleContext, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.BaseStatement:
        if original.name.value not in _REDUCTION_METHODS:
            return updated
        params = [*original.params.posonly_params, *original.params.params, *original.params.kwonly_params]
        for param in params:
            if param.name.value == "experimental_hints":
                ctx.report(
                    param,
                    f"`{original.name.value}` is called with `options=` from TF 2.4: rename the parameter "
                    "`experimental_hints` to `options`, and its uses in the body.",
                )
        return updated


RULES = (HintsParameterOverride(),)
