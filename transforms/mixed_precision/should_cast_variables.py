"""TF24310 `should-cast-variables`: `Policy.should_cast_variables` is gone from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for, may_have_effects
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import any_of, attribute

from .policy_loss_scale import policy_evidence


class ShouldCastVariables(Rule):
    """`Policy.should_cast_variables` is gone from TF 2.4: compare the policy's dtypes.

    TF 2.3's experimental `Policy.should_cast_variables` was `variable_dtype != compute_dtype`
    (tensorflow/python/keras/mixed_precision/experimental/policy.py of the tensorflow-cpu 2.3.0
    wheel); neither the stable nor the experimental `Policy` of TF 2.4 has it (AttributeError,
    executed on 2.4.0). The fix writes that comparison, which means the same on every release. Only
    where the receiver is visibly a policy (a `Policy(...)`, `global_policy()` or
    `get_layer_policy(...)` call, a name bound to one in the same scope, or a layer's
    `.dtype_policy` or Keras's private `._dtype_policy`, which code copied from Keras reads: a
    policy of either kind, without `should_cast_variables` on 2.4), and only for a name or an
    attribute that calls nothing, since the comparison reads it twice: another receiver
    (`make_layer()._dtype_policy`) is reported. Not where the attribute is written, not read.

    Before: `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.experimental.Policy("mixed_float16")` then `cast = policy.should_cast_variables`
    After:  `from tensorflow.keras import mixed_precision` then `policy = mixed_precision.experimental.Policy("mixed_float16")` then `cast = (policy.variable_dtype != policy.compute_dtype)`

    Versions: `variable_dtype` and `compute_dtype` are properties of the experimental `Policy` of
    TF 2.3 and of both policies of 2.4, and `should_cast_variables` is gone from 2.4 (policy.py in
    tensorflow/python/keras/mixed_precision/ of the tensorflow-cpu 2.3.0 and 2.4.0 wheels; executed).
    """

    code = "TF24310"
    name = "should-cast-variables"
    new_since = "2.3"
    old_removed = "2.4"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = ("should_cast_variables", "Policy", "global_policy", "dtype_policy", "get_layer_policy")
    requires = (
        "should_cast_variables",
        *MENTIONS_TENSORFLOW,
        any_of(*IMPORTS_TENSORFLOW, attribute("dtype_policy")),
    )

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if original.attr.value != "should_cast_variables":
            return updated
        if ctx.ancestors and isinstance(ctx.ancestors[0], (cst.AssignTarget, cst.AugAssign)):
            return updated  # written, not read: no comparison can stand there
        evidence = policy_evidence(ctx, original.value) or _private_policy_evidence(original.value)
        if evidence is None:
            return updated
        receiver = code_for(original.value)
        message = (
            f"`Policy.should_cast_variables` is gone from TF 2.4: write "
            f"`{receiver}.variable_dtype != {receiver}.compute_dtype`\n"
            f"{sentence(evidence)}. The attribute meant that comparison."
        )
        if may_have_effects(original.value):  # read twice, it would run its calls twice
            message = (
                f"`Policy.should_cast_variables` is gone from TF 2.4: bind `{receiver}` to a name, `policy`, "
                "then write `policy.variable_dtype != policy.compute_dtype`\n"
                f"{sentence(evidence)}. The attribute meant that comparison; read twice, `{receiver}` would "
                "run its calls twice."
            )
        if not isinstance(original.value, (cst.Name, cst.Attribute)) or may_have_effects(original.value):
            ctx.report(original, message, evidence=evidence)
            return updated
        comparison = cst.Comparison(
            left=cst.Attribute(updated.value, cst.Name("variable_dtype")),
            comparisons=[
                cst.ComparisonTarget(cst.NotEqual(), cst.Attribute(updated.value, cst.Name("compute_dtype")))
            ],
            lpar=[cst.LeftParen()],
            rpar=[cst.RightParen()],
        )
        return ctx.report(original, message, replacement=comparison, evidence=evidence) or updated


def _private_policy_evidence(receiver: cst.BaseExpression) -> str | None:
    """Why `receiver` is a policy when it is a layer's private `._dtype_policy` (Keras's own
    attribute, which code copied from Keras's layers reads; TF24309 leaves it out, as the policy it
    holds may keep `loss_scale` on 2.4, but neither kind of policy keeps `should_cast_variables`)."""
    if isinstance(receiver, cst.Attribute) and receiver.attr.value == "_dtype_policy":
        return f"`{code_for(receiver)}` is a layer's policy"
    return None


RULES = (ShouldCastVariables(),)
