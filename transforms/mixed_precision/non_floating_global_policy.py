"""TF24311 `non-floating-global-policy`: the global policy must be a floating-point one from
TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext

from ._common import EXPERIMENTAL, STABLE, _string

_SETTERS = frozenset({f"{EXPERIMENTAL}.set_policy", f"{STABLE}.set_global_policy"})
_POLICIES = frozenset({f"{EXPERIMENTAL}.Policy", f"{STABLE}.Policy"})
_FLOATING = frozenset(
    {"float16", "bfloat16", "float32", "float64", "mixed_float16", "mixed_bfloat16", "_infer"}
)


def _policy_name(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """The name of the policy `node` spells: a string, or a `Policy("...")` call."""
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) in _POLICIES and node.args:
        node = node.args[0].value
    value = _string(node)
    return value if isinstance(value, str) else None


class NonFloatingGlobalPolicy(Rule):
    """The global policy must be a floating-point one from TF 2.4.

    TF 2.3's `set_policy("int32")` made every new layer compute in int32; from TF 2.4 both
    `set_policy` and `set_global_policy` raise `ValueError` for a policy that is not floating point
    (executed on TF 2.3.0 and 2.4.0). Give the layers that need another dtype their own
    (`dtype="int32"`) instead. Reported where the policy is a string or a `Policy("...")` call.

    Reported: `tf.keras.mixed_precision.experimental.set_policy("int32")`
    Write instead: `tf.keras.layers.Dense(8, dtype="int32")` (on the layers that need it)

    Versions: `set_policy` refuses non-floating policies from TF 2.4 (TF 2.4's release notes).
    """

    code = "TF24311"
    name = "non-floating-global-policy"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = ("set_policy", "set_global_policy")
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.Call:
        if ctx.qualified_name(original.func) not in _SETTERS or not original.args:
            return updated
        policy = _policy_name(ctx, original.args[0].value)
        if policy is not None and policy not in _FLOATING:
            ctx.report(
                original,
                f"TF 2.4 refuses the global policy `{policy}`, which is not floating point\nIt raises "
                f'ValueError: give the layers that need it their own dtype (`dtype="{policy}"`) and keep a '
                "floating global policy.",
            )
        return updated


RULES = (NonFloatingGlobalPolicy(),)
