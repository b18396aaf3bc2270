"""A mixed-precision policy's `loss_scale` (TF24309): gone from the stable `Policy` of TF 2.4.

The loss scale lives on the `LossScaleOptimizer` from TF 2.4. `policy_evidence` is also what keeps
TF24301 from migrating a `Policy(...)` call in a file that reads a policy's loss scale.
"""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import any_of, attribute

from .._text import assigned_value

_EXPERIMENTAL = "tensorflow.keras.mixed_precision.experimental"
_STABLE = "tensorflow.keras.mixed_precision"
_POLICY_SOURCES = frozenset(
    {
        f"{_EXPERIMENTAL}.Policy",
        f"{_STABLE}.Policy",
        f"{_EXPERIMENTAL}.global_policy",
        f"{_STABLE}.global_policy",
        f"{_EXPERIMENTAL}.get_layer_policy",
    }
)
_STABLE_SOURCES = frozenset({f"{_STABLE}.Policy", f"{_STABLE}.global_policy"})
# An experimental `set_policy` given something other than a string (a `Policy` object, which TF 2.4
# keeps as the global policy with its `loss_scale`; from a string it makes a stable `Policy`).
_SETS_POLICY_OBJECT = re.compile(r"\bset_policy\(\s*(?![\s\"'])")
# A layer's public attribute (`_dtype_policy` is Keras's own, whose policy class keeps `loss_scale`).
_POLICY_ATTRIBUTE = "dtype_policy"
# The key under which a read blocks the migration of `Policy(...)` calls (see `ctx.block`).
LOSS_SCALE_READ = "policy-loss-scale-read"


def _policy_source(ctx: RuleContext, receiver: cst.BaseExpression) -> str:
    """The qualified name of the function whose call made the policy `receiver` is (itself, or
    the value of its name); "" when it is no such call."""
    value = assigned_value(ctx, receiver) if isinstance(receiver, cst.Name) else receiver
    return (ctx.qualified_name(value.func) or "") if isinstance(value, cst.Call) else ""


def policy_evidence(ctx: RuleContext, receiver: cst.BaseExpression) -> str | None:
    """Why `receiver` is a mixed-precision policy, or None when the file does not show it: a call
    of `Policy(...)` / `global_policy()` / `get_layer_policy(...)` (experimental or stable), a name
    bound to one in the same scope, or a layer's `.dtype_policy`."""
    if _policy_source(ctx, receiver) in _POLICY_SOURCES:
        return f"`{code_for(receiver)}` is a policy"
    if isinstance(receiver, cst.Attribute) and receiver.attr.value == _POLICY_ATTRIBUTE:
        return f"`{code_for(receiver)}` is a policy"
    return None


def policy_loss_scale_read(ctx: RuleContext, node: cst.Attribute) -> str | None:
    """Why `node` reads a policy's `loss_scale`, or None."""
    if node.attr.value != "loss_scale":
        return None
    ancestors = ctx.ancestors
    if ancestors and isinstance(ancestors[0], (cst.AssignTarget, cst.AugAssign)):
        return None  # written, not read
    return policy_evidence(ctx, node.value)


class PolicyLossScale(Rule):
    """A policy's `loss_scale` is gone from TF 2.4's stable `Policy`: the loss scale lives on the
    `LossScaleOptimizer`.

    TF 2.3's `Policy('mixed_float16').loss_scale` was the policy's `LossScale`; the stable
    `tf.keras.mixed_precision.Policy` of TF 2.4 has no `loss_scale` (AttributeError), and the
    experimental `Policy` that kept it is gone from TF 2.9. Read the scale from the optimizer
    instead: `optimizer.loss_scale` (a tensor) of the `LossScaleOptimizer` you wrap, or
    `model.optimizer.loss_scale` after `compile` under `'mixed_float16'`; choose it with
    `LossScaleOptimizer(opt, dynamic=False, initial_scale=N)`.

    Reported where `.loss_scale` is read from a visible policy: a `Policy(...)`, `global_policy()`
    or `get_layer_policy(...)` call (experimental or stable) or a name bound to one in the same
    scope, or a layer's `.dtype_policy`. In a file with such a read, TF24301 does not migrate the
    `Policy(...)` calls (the policy would lose its `loss_scale`), and an experimental module import
    stays while they do. Not rewritten: the optimizer to read is not visible.

    Reported: `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.Policy("mixed_float16")` then `print(policy.loss_scale)`
    Write instead: `print(optimizer.loss_scale)` (the `LossScaleOptimizer` wrapping your optimizer)

    Versions: the stable `Policy` has no `loss_scale` from TF 2.4, and the experimental `Policy`
    that keeps it is gone from TF 2.9 (the release notes of TF 2.4 and 2.9). A read from an
    experimental `Policy(...)` stops working in TF 2.9; one from the global policy or a layer's
    breaks on TF 2.4 itself, where they are stable `Policy` objects (the experimental `set_policy`
    given a string makes one too), unless the file sets the global policy to an experimental
    `Policy` object (then TF 2.9, as the finding says); one from the stable API has none.
    """

    code = "TF24309"
    name = "policy-loss-scale"
    changed_in = "2.4"
    old_removed = "2.9"
    fix = None
    severity = Severity.ERROR
    # `.loss_scale` where it is read, not in `loss_scale_optimizer` or `get_loss_scale()`
    triggers = (attribute("loss_scale"), "Policy", "global_policy", "dtype_policy", "get_layer_policy")
    # A read of `.loss_scale`, and a policy to read it from (`policy_evidence`): `Policy(...)` and the
    # rest need an import of the public API, a layer's `.dtype_policy` none (`._dtype_policy` is
    # Keras's own). Not a flag's `flags_obj.loss_scale` alone.
    requires = (
        attribute("loss_scale"),
        *MENTIONS_TENSORFLOW,
        any_of(*IMPORTS_TENSORFLOW, attribute(_POLICY_ATTRIBUTE)),
        any_of("Policy", "global_policy", "get_layer_policy", attribute(_POLICY_ATTRIBUTE)),
    )

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        evidence = policy_loss_scale_read(ctx, original)
        if evidence is None:
            return updated
        source = _policy_source(ctx, original.value)
        if source == f"{_EXPERIMENTAL}.Policy":
            when, removed_in = "the experimental `Policy` keeps it up to TF 2.8, TF 2.9 removes it", None
        elif source in _STABLE_SOURCES:
            when, removed_in = "a policy of the stable API has none", "2.4"
        elif _SETS_POLICY_OBJECT.search(ctx.source):
            when, removed_in = (
                "this file sets the global policy to an experimental `Policy` object, which keeps it up to "
                "TF 2.8 (TF 2.9 removes it); a global policy set from a string, or not set, is a stable "
                "`Policy` on TF 2.4, which has none",
                None,
            )
        else:  # the global policy, a layer's: the stable `Policy` of TF 2.4 (r16, r146)
            when, removed_in = "on TF 2.4 it is a stable `Policy`, which has none", "2.4"
        ctx.report(
            original,
            "A policy's `loss_scale` is gone from TF 2.4's stable `Policy`: read `optimizer.loss_scale` "
            f"from the `LossScaleOptimizer` instead.\n{sentence(evidence)}; {when}. The loss scale lives on "
            "the `LossScaleOptimizer` wrapping your optimizer (`model.optimizer.loss_scale` after "
            "`compile` under 'mixed_float16').",
            evidence=evidence,
            removed_in=removed_in,
        )
        return updated


RULES = (PolicyLossScale(),)
