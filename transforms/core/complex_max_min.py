"""TF24502 `complex-max-min`: `Max` / `Min` reject complex inputs from TF 2.4, and so do `tf.reduce_max` / `tf.reduce_min`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern, imported_or_attribute

from .._text import assigned_value, literal_value

_MAX_MIN = {"tensorflow.raw_ops.Max", "tensorflow.raw_ops.Min"}


_REDUCTIONS = {
    "tensorflow.reduce_max",
    "tensorflow.reduce_min",
    "tensorflow.math.reduce_max",
    "tensorflow.math.reduce_min",
}


_COMPLEX = {
    f"{module}.{name}"
    for module in ("tensorflow", "tensorflow.dtypes", "numpy")
    for name in ("complex64", "complex128")
} | {"tensorflow.complex", "numpy.complex_", "numpy.csingle", "numpy.cdouble"}


# Functions whose result is real whatever their input: what is inside them does not make a value complex.
_REAL_VALUED = {f"tensorflow.{name}" for name in ("abs", "math.abs", "math.real", "math.imag", "math.angle")}


# How an imaginary literal ends (`1j`, `1.j`, `1e3J`), as literals and as a pattern: not `x.joint`.
_IMAGINARY_ENDS = tuple(digit + j for digit in "0123456789." for j in "jJ")
_IMAGINARY = r"\d\.?[jJ]\b"


# What can reach `tf.raw_ops.Max` / `Min`: the attribute itself, or an import of `raw_ops` or from it
# (whose bound names the pruning follows); not the other raw ops (`tf.raw_ops.SegmentMaxV2`).
_RAW_MAX_MIN = r"raw_ops(?:[ \t]*\.[ \t]*M(?:ax|in)\b|[ \t]+(?:as|import)\b)"
_COMPLEX_NAME = imported_or_attribute("complex", whole=False).pattern  # `tf.complex`, `np.complex_`


def _visibly_complex(ctx: RuleContext, expression: cst.CSTNode, depth: int = 0) -> bool:
    """Whether the file shows `expression` to be complex: a `1j` literal, a complex dtype or
    `tf.complex(...)` in it, or a name assigned such a value; not inside a function whose result is
    real (`tf.abs`, `tf.math.real`, ...)."""
    stack = [expression]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and ctx.qualified_name(node.func) in _REAL_VALUED:
            continue
        if isinstance(node, cst.Imaginary):
            return True
        if isinstance(node, (cst.Name, cst.Attribute)) and ctx.qualified_name(node) in _COMPLEX:
            return True
        if (
            isinstance(node, cst.Arg)
            and node.keyword is not None
            and node.keyword.value == "dtype"
            and literal_value(node.value) in ("complex64", "complex128")
        ):
            return True
        if isinstance(node, cst.Name) and depth < 3:
            assigned = assigned_value(ctx, node)
            if assigned is not None and _visibly_complex(ctx, assigned, depth + 1):
                return True
        if not isinstance(node, cst.Lambda):
            stack.extend(node.children)
    return False


class ComplexMaxMin(Rule):
    """`Max` / `Min` reject complex inputs from TF 2.4, and so do `tf.reduce_max` / `tf.reduce_min`.

    TF 2.3 accepted `complex64` / `complex128` in `tf.raw_ops.Max` and `tf.raw_ops.Min`, the ops
    behind `tf.reduce_max` and `tf.reduce_min`; TF 2.4 raises `InvalidArgumentError`. Every call of
    `tf.raw_ops.Max` / `Min` is reported (its dtype is not visible), and calls of
    `tf.reduce_max` / `tf.reduce_min` / `tf.math.reduce_*` whose input the file shows to be
    complex (a `1j` literal, a complex dtype, `tf.complex(...)`, or a name assigned one). Not
    rewritten: there is no complex ordering; decide what "largest" means for your values.

    Reported: `tf.reduce_max(tf.complex(re, im))`
    Write instead: `tf.reduce_max(tf.abs(tf.complex(re, im)))` (largest magnitude)

    Versions: complex inputs are rejected from TF 2.4 (TF 2.4's release notes). No program shows it:
    TF 2.3.0 has no CPU kernel for complex `Max` / `Min` either (executed: `InvalidArgumentError`),
    so what changed on a CPU is that TF 2.4 refuses to build the op in a graph, where 2.3 failed
    when running it.
    """

    code = "TF24502"
    name = "complex-max-min"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # "complex": the lines that make a value complex must be seen too, not only the reductions.
    triggers = (Pattern(_RAW_MAX_MIN, "raw_ops"), "reduce_max", "reduce_min", "complex")
    # What it reports (`raw_ops`, or a reduction), and for a reduction what makes its input complex
    # (`_COMPLEX`'s names as code, a complex dtype's string, an imaginary literal: `1j`, `1.J`,
    # `1e3j`), not "complex" in prose.
    requires = (
        *IMPORTS_TENSORFLOW,
        Pattern(_RAW_MAX_MIN + r"|reduce_m(?:ax|in)", "raw_ops", "reduce_max", "reduce_min"),
        Pattern(
            rf"{_RAW_MAX_MIN}|complex(?:64|128)|{_COMPLEX_NAME}|csingle|cdouble|{_IMAGINARY}",
            "raw_ops",
            "complex",
            "csingle",
            "cdouble",
            *_IMAGINARY_ENDS,
        ),
    )

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualified = ctx.qualified_name(original.func) or ""
        function = qualified.replace("tensorflow.", "tf.", 1)
        if qualified in _MAX_MIN:
            ctx.report(
                original,
                f"`{function}` rejects complex64/complex128 inputs from TF 2.4.\nIf its input can be "
                "complex, pass `tf.abs(x)` (magnitudes) or `tf.math.real(x)` instead.",
            )
        elif qualified in _REDUCTIONS and original.args:
            first = next((a for a in original.args if a.keyword and a.keyword.value == "input_tensor"), None)
            first = first or (original.args[0] if original.args[0].keyword is None else None)
            if first is not None and not first.star and _visibly_complex(ctx, first.value):
                value = " ".join(code_for(first.value).split())
                extreme = "smallest" if qualified.endswith("_min") else "largest"
                ctx.report(
                    original,
                    f"`{function}` rejects complex inputs from TF 2.4, and `{value}` is complex: reduce a real "
                    f"value.\nIt raises InvalidArgumentError: reduce e.g. `{function}(tf.abs({value}))` "
                    f"for the {extreme} magnitude or `{function}(tf.math.real({value}))` for the {extreme} real part.",
                )
        return updated


RULES = (ComplexMaxMin(),)
