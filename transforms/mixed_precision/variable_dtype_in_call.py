"""TF24313 `variable-dtype-in-call`: under a mixed policy, a layer variable's `.dtype` inside `call` is
the variable's dtype (float32) from TF 2.4, not the compute dtype."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import any_of

from .embedding_output_dtype import MIXED, mixed_policy

_CASTS = frozenset({"tensorflow.cast", "tensorflow.dtypes.cast"})


def _in_call_method(ctx: RuleContext) -> bool:
    """Whether the node being left is in the `call` method of a class (a layer's)."""
    function = next((a for a in ctx.ancestors if isinstance(a, cst.FunctionDef)), None)
    if function is None or function.name.value != "call":
        return False
    return any(isinstance(a, cst.ClassDef) for a in ctx.ancestors)


def _layer_variable(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """`w` when `node` is `self.w.dtype` and the file makes `self.w` a layer's weight
    (`self.w = self.add_weight(...)`), else None."""
    if not (isinstance(node, cst.Attribute) and node.attr.value == "dtype"):
        return None
    owner = node.value
    if not (
        isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name) and owner.value.value == "self"
    ):
        return None
    name = owner.attr.value
    if re.search(rf"\bself\.{re.escape(name)}\s*=\s*self\.add_(?:weight|variable)\(", ctx.source) is None:
        return None
    return name


class VariableDtypeInCall(Rule):
    """Under a mixed policy, a layer variable's `.dtype` inside `call` is the variable's dtype
    (float32) from TF 2.4, not the compute dtype.

    Under `mixed_float16` (or `mixed_bfloat16`) a layer's variables are float32 and are cast to
    the compute dtype inside `call`. In TF 2.3 their `.dtype` there was the compute dtype
    (float16); from TF 2.4 it is the variable's own dtype, float32 (TF 2.4's release notes:
    `AutoCastVariable.dtype`). A tensor made with it (`tf.zeros(tf.shape(x), dtype=self.w.dtype)`,
    `tf.cast(x, self.w.dtype)`) is float32 then, and combining it with the float16 inputs raises
    (executed on TF 2.3.0 and 2.4.0). Use the layer's `self.compute_dtype` (TF 2.4) or the input's
    `x.dtype`.

    Reported where the file makes a mixed policy global (`set_policy("mixed_float16")`) and, in a
    class's `call` method, `self.w.dtype` is given as `dtype=` or as `tf.cast`'s dtype, where the
    file makes `self.w` with `self.add_weight(...)`. Not rewritten: which dtype is meant is the
    author's choice.

    Reported:

        tf.keras.mixed_precision.experimental.set_policy("mixed_float16")


        class Shift(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.w = self.add_weight("w", shape=())

            def call(self, x):
                return x + tf.zeros(tf.shape(x), dtype=self.w.dtype)

    Write instead:

        tf.keras.mixed_precision.set_global_policy("mixed_float16")


        class Shift(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.w = self.add_weight("w", shape=())

            def call(self, x):
                return x + tf.zeros(tf.shape(x), dtype=self.compute_dtype)

    Versions: `AutoCastVariable.dtype` is the variable's dtype from TF 2.4 (TF 2.4's release notes,
    mixed precision); `Layer.compute_dtype` is public from TF 2.4.
    """

    code = "TF24313"
    name = "variable-dtype-in-call"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # the dtype read, and where the policy is set (`mixed_policy` reads them)
    triggers = (".dtype", "set_policy", "set_global_policy", "Policy")
    requires = (*IMPORTS_TENSORFLOW, "add_", ".dtype", any_of("mixed_float16", "mixed_bfloat16"))
    follows = ()

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        candidates = [a.value for a in original.args if a.keyword is not None and a.keyword.value == "dtype"]
        if ctx.qualified_name(original.func) in _CASTS and len(original.args) >= 2:
            candidates.append(original.args[1].value)
        for value in candidates:
            name = _layer_variable(ctx, value)
            if name is None or not _in_call_method(ctx):
                continue
            policy = mixed_policy(ctx)
            if policy is None:
                return updated
            ctx.report(
                value,
                f"`self.{name}.dtype` in `call` is float32, not {MIXED[policy]}, under `{policy}` from TF "
                f"2.4: use `self.compute_dtype` (or the input's dtype).\nInside `call` a layer's variables "
                f"are cast to the compute dtype, but from TF 2.4 their `.dtype` is their own (float32); "
                f"`{abbreviated(original.func)}` then makes float32 tensors that the float16 inputs cannot "
                "be combined with.",
                evidence=f"the file sets the global policy `{policy}`",
            )
        return updated


RULES = (VariableDtypeInCall(),)
