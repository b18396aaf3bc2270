"""TF24215 `concrete-function-on-symbolic`: `get_concrete_function` cannot take Keras symbolic inputs from
TF 2.4: pass `tf.TensorSpec`s."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext

from ._symbolic import EVIDENCE_IN_FILE, EVIDENCE_TRIGGERS, EVIDENCE_WORDS, symbolic_evidence, symbolic_names


class ConcreteFunctionOnSymbolic(Rule):
    """`get_concrete_function` cannot take Keras symbolic inputs from TF 2.4: pass `tf.TensorSpec`s.

    TF 2.4's `KerasTensor`s are not tensors, and not hashable either, so tracing a `tf.function`
    with one raises `TypeError` (hence the severity). Reported where `.get_concrete_function(...)`
    receives a name bound from `tf.keras.Input(...)` (or computed from one) in the same scope, or a
    model's `.input(s)` / `.output(s)`; the message spells the `tf.TensorSpec` to pass. Not rewritten: the spec's shape may need `None`
    dimensions the input does not show.

    Reported: `inputs = tf.keras.Input((3,))` then `concrete = serve.get_concrete_function(inputs)`
    Write instead: `concrete = serve.get_concrete_function(tf.TensorSpec(inputs.shape, inputs.dtype))`

    Versions: unsupported from TF 2.4 (the Functional API change in TF 2.4's release notes).
    """

    code = "TF24215"
    name = "concrete-function-on-symbolic"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = ("get_concrete_function",)
    requires = (*MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "get_concrete_function":
            return updated
        for arg in original.args:
            names = symbolic_names(ctx, arg.value)
            for name, _evidence in names:
                ctx.report(
                    name,
                    f"`get_concrete_function` receives `{name.value}`, a Keras symbolic value, which "
                    f"raises TypeError from TF 2.4: pass `tf.TensorSpec({name.value}.shape, "
                    f"{name.value}.dtype)` instead.",
                )
            if not names and symbolic_evidence(ctx, arg.value) is not None:  # `model.inputs`
                code = code_for(arg.value)
                several = isinstance(arg.value, cst.Attribute) and arg.value.attr.value in (
                    "inputs",
                    "outputs",
                )
                spec = (
                    f"[tf.TensorSpec(t.shape, t.dtype) for t in {code}]"
                    if several
                    else f"tf.TensorSpec({code}.shape, {code}.dtype)"
                )
                ctx.report(
                    arg.value,
                    f"`get_concrete_function` receives `{code}`, Keras symbolic "
                    f"{'values' if several else 'value'}, which raises TypeError from TF 2.4: pass "
                    f"`{spec}` instead.",
                )
        return updated


RULES = (ConcreteFunctionOnSymbolic(),)
