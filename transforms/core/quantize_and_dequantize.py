"""TF24505 `quantize-and-dequantize`: `tf.quantization.quantize_and_dequantize` is deprecated from TF 2.4."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import UnboundArguments, bind_arguments, code_for, evaluation_order_kept, holds
from tf24migrate.rules.context import RuleContext

_QUANTIZE_PARAMS = (
    "input",
    "input_min",
    "input_max",
    "signed_input",
    "num_bits",
    "range_given",
    "round_mode",
    "name",
    "narrow_range",
    "axis",
)


def _free_parameter_name(call: cst.Call) -> str:
    used = set(re.findall(r"\w+", code_for(call)))
    name = "_t"
    while name in used:
        name += "_"
    return name


_SCOPES = (
    cst.ClassDef,
    cst.FunctionDef,
    cst.Lambda,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
)
# what means something else in a lambda's body: `:=` binds in it, `await` and `yield` cannot be there
_NOT_IN_A_LAMBDA = (cst.NamedExpr, cst.Await, cst.Yield)


def _unmovable(ctx: RuleContext, original: cst.Call, updated: cst.Call, input_arg: cst.Arg) -> str | None:
    """Why the call's arguments other than the input cannot move into the closure, or None."""
    scope = next((a for a in ctx.ancestors if isinstance(a, _SCOPES)), None)
    if isinstance(scope, cst.ClassDef):
        return "in a class body, a lambda does not see the class's names"
    others = [u.value for o, u in zip(original.args, updated.args, strict=True) if o is not input_arg]
    if any(holds(value, _NOT_IN_A_LAMBDA) for value in others):
        return "an argument holds `:=`, `await` or `yield`, which mean something else in a lambda"
    value = updated.args[original.args.index(input_arg)].value
    if not evaluation_order_kept(updated, [value, *others]):
        return "the closure would run the other arguments' calls after the input's, not before"
    return None


class QuantizeAndDequantize(Rule):
    """`tf.quantization.quantize_and_dequantize` is deprecated from TF 2.4.

    It still works, unchanged. Its replacement `quantize_and_dequantize_v2` zeroes the gradient
    outside the quantization range, so the old pass-through gradient needs `tf.grad_pass_through`.
    The release notes' recipe `tf.grad_pass_through(tf.quantization.quantize_and_dequantize_v2)(x,
    ...)` fails (one gradient for several inputs) or silently loses the pass-through; only the
    closure form below keeps it, eagerly and in `tf.function`. The rewrite is unsafe: values and
    gradients stay the same, but the graph holds another op (`QuantizeAndDequantizeV4` under an
    identity gradient), which matters to converters and tools that look for the old op. It is
    applied only with `--unsafe-fixes`; calls passing `*args` / `**kwargs` are reported as they are,
    and so are calls whose other arguments cannot move into the closure: in a class body (a lambda
    there does not see the class's names), holding `:=`, `await` or `yield`, or calling functions
    before an input that calls one too (the closure runs them after the input).

    Before: `y = tf.quantization.quantize_and_dequantize(x, -10.0, 10.0, range_given=True)`
    After:  `y = tf.grad_pass_through(lambda _t: tf.quantization.quantize_and_dequantize_v2(_t, -10.0, 10.0, range_given=True))(x)`

    Versions: `tf.quantization.quantize_and_dequantize_v2` is exported since TF 2.4
    (tensorflow/_api/v2/quantization/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in 2.3.0;
    `tf.grad_pass_through` is in tensorflow_core/_api/v2/v2.py of the tensorflow 2.0.0 wheel); the old
    function is still exported in 2.15.1.
    """

    code = "TF24505"
    name = "quantize-and-dequantize"
    new_since = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.INFO
    triggers = ("quantize_and_dequantize",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != "tensorflow.quantization.quantize_and_dequantize":
            return updated
        message = (
            "`tf.quantization.quantize_and_dequantize` is deprecated from TF 2.4.\nIts replacement "
            "`quantize_and_dequantize_v2` zeroes gradients outside the range, so wrap it in "
            "`tf.grad_pass_through` as a closure to keep the old gradient."
        )
        try:
            bound = bind_arguments(original.args, _QUANTIZE_PARAMS)
        except UnboundArguments as problem:
            ctx.report(original, f"{message} Rewrite it by hand: {problem}.")
            return updated
        if "input" not in bound:
            ctx.report(original, f"{message} Rewrite it by hand: the call passes no input.")
            return updated
        unmovable = _unmovable(ctx, original, updated, bound["input"])
        if unmovable is not None:
            ctx.report(original, f"{message} Rewrite it by hand: {unmovable}.")
            return updated
        v2 = ctx.spell("tensorflow.quantization.quantize_and_dequantize_v2", like=original.func)
        pass_through = ctx.spell("tensorflow.grad_pass_through", like=original.func)
        if v2 is None or pass_through is None:
            ctx.report(original, message)
            return updated
        parameter = _free_parameter_name(original)
        index = next(i for i, arg in enumerate(original.args) if arg is bound["input"])
        args = list(updated.args)
        args[index] = args[index].with_changes(value=cst.Name(parameter))
        inner = updated.with_changes(func=v2, args=args)
        closure = cst.Lambda(
            params=cst.Parameters(params=[cst.Param(cst.Name(parameter))]),
            body=inner,
        )
        replacement = cst.Call(
            func=cst.Call(func=pass_through, args=[cst.Arg(closure)]),
            args=[cst.Arg(updated.args[index].value)],
        )
        return ctx.report(original, message, replacement=replacement) or updated


RULES = (QuantizeAndDequantize(),)
