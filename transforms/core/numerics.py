"""Numerics: complex `Max` / `Min` (TF24502), TensorFloat-32 by default (TF24503), and
`quantize_and_dequantize` (TF24505)."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import UnboundArguments, bind_arguments, code_for
from tf24migrate.rules.names import import_bindings, is_import_line, is_tensorflow
from tf24migrate.rules.needles import Pattern

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
_IMAGINARY_ENDS = tuple(digit + j for digit in "0123456789." for j in "jJ")  # how an imaginary literal ends
# What can reach `tf.raw_ops.Max` / `Min`: the attribute itself, or an import of `raw_ops` or from it
# (whose bound names the pruning follows); not the other raw ops (`tf.raw_ops.SegmentMaxV2`).
_RAW_MAX_MIN = r"raw_ops(?:[ \t]*\.[ \t]*M(?:ax|in)\b|[ \t]+(?:as|import)\b)"


def _visibly_complex(ctx, expression: cst.CSTNode, depth: int = 0) -> bool:
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
        is_dtype = isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == "dtype"
        if is_dtype and literal_value(node.value) in ("complex64", "complex128"):
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

    Versions: complex inputs are rejected from TF 2.4 (TF 2.4's release notes).
    """

    code = "TF24502"
    name = "complex-max-min"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # "complex": the lines that make a value complex must be seen too, not only the reductions.
    triggers = (Pattern(_RAW_MAX_MIN, "raw_ops"), "reduce_max", "reduce_min", "complex")
    # What it reports (`raw_ops`, or a reduction), and for a reduction what makes its input complex
    # (`_COMPLEX`'s names, a complex dtype's string, an imaginary literal: `1j`, `1.J`, `1e3j`).
    requires = (
        *IMPORTS_TENSORFLOW,
        Pattern(_RAW_MAX_MIN + r"|reduce_m(?:ax|in)", "raw_ops", "reduce_max", "reduce_min"),
        Pattern(
            _RAW_MAX_MIN + r"|complex|csingle|cdouble|[\d.][jJ]",
            "raw_ops",
            "complex",
            "csingle",
            "cdouble",
            *_IMAGINARY_ENDS,
        ),
    )

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        qualified = ctx.qualified_name(original.func) or ""
        function = qualified.replace("tensorflow.", "tf.", 1)
        if qualified in _MAX_MIN:
            ctx.report(
                original,
                f"`{function}` rejects complex64/complex128 inputs from TF 2.4: if its input can be "
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
                    f"`{function}` rejects complex inputs from TF 2.4 (InvalidArgumentError), and "
                    f"`{value}` is complex: reduce a real value instead, e.g. `{function}(tf.abs({value}))` "
                    f"for the {extreme} magnitude or `{function}(tf.math.real({value}))` for the {extreme} real part.",
                )
        return updated


_TF32 = "tensorflow.config.experimental.enable_tensor_float_32_execution"


def _is_main_guard(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.If) or not isinstance(statement.test, cst.Comparison):
        return False
    test = statement.test
    if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Equal):
        return False
    sides = {code_for(test.left).strip(), code_for(test.comparisons[0].comparator).strip()}
    return "__name__" in sides and ({"'__main__'", '"__main__"'} & sides) != set()


def _imports_tensorflow(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return any(
        is_tensorflow(qualified)
        for small in statement.body
        if isinstance(small, (cst.Import, cst.ImportFrom))
        for _, qualified, _ in import_bindings(small)
    )


class TensorFloat32(Rule):
    """TF 2.4 runs float32 matmuls and convolutions in TensorFloat-32 on Ampere GPUs (opt-in rule).

    TF32 rounds the inputs of those ops to a 10-bit mantissa; most models train the same, but code
    that needs full float32 precision must turn it off. For a program (a file with
    `if __name__ == "__main__":` that imports TensorFlow), the unsafe fix inserts the call after the
    top-level imports. Opt-in (`--select TF24503`), because keeping TF32 on is usually right; a
    file that already calls `enable_tensor_float_32_execution` is left alone.

    Before: `import tensorflow as tf` then `if __name__ == "__main__": main()`
    After:  `import tensorflow as tf` then `tf.config.experimental.enable_tensor_float_32_execution(False)` then `if __name__ == "__main__": main()`

    Versions: `tf.config.experimental.enable_tensor_float_32_execution` is exported since TF 2.4
    (tensorflow/_api/v2/config/experimental/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in 2.3.0);
    TensorFloat-32 is on by default from 2.4 (TF 2.4's release notes).
    """

    code = "TF24503"
    name = "tensor-float-32"
    new_since = "2.4"
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.INFO
    default = False
    triggers = ("__main__",)
    requires = MENTIONS_TENSORFLOW  # any TensorFlow import counts (`_imports_tensorflow`)

    def leave_Module(self, ctx, original: cst.Module, updated: cst.Module):
        if "enable_tensor_float_32_execution" in ctx.source:
            return updated
        if not any(_is_main_guard(s) for s in original.body) or not any(
            _imports_tensorflow(s) for s in original.body
        ):
            return updated
        last_original = max(i for i, s in enumerate(original.body) if is_import_line(s))
        last_updated = max(i for i, s in enumerate(updated.body) if is_import_line(s))
        function = ctx.spell(_TF32)
        if function is None:
            return updated
        statement = cst.SimpleStatementLine([cst.Expr(cst.Call(function, [cst.Arg(cst.Name("False"))]))])
        applied = ctx.report(
            original.body[last_original],
            "TF 2.4 runs float32 matmuls and convolutions on Ampere GPUs in TensorFloat-32 (10-bit "
            "mantissa) by default: if this program needs full float32 precision, turn it off after the "
            "imports.",
            replacement=statement,
            fix=Fix.UNSAFE,
        )
        if applied is None:
            return updated
        body = list(updated.body)
        return updated.with_changes(body=[*body[: last_updated + 1], statement, *body[last_updated + 1 :]])


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


class QuantizeAndDequantize(Rule):
    """`tf.quantization.quantize_and_dequantize` is deprecated from TF 2.4.

    It still works, unchanged. Its replacement `quantize_and_dequantize_v2` zeroes the gradient
    outside the quantization range, so the old pass-through gradient needs `tf.grad_pass_through`.
    The release notes' recipe `tf.grad_pass_through(tf.quantization.quantize_and_dequantize_v2)(x,
    ...)` fails (one gradient for several inputs) or silently loses the pass-through; only the
    closure form below keeps it, eagerly and in `tf.function`. The rewrite is unsafe: values and
    gradients stay the same, but the graph holds another op (`QuantizeAndDequantizeV4` under an
    identity gradient), which matters to converters and tools that look for the old op. It is
    applied only with `--unsafe-fixes`; calls passing `*args` / `**kwargs` are reported as they are.

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
    severity = Severity.WARNING
    triggers = ("quantize_and_dequantize",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != "tensorflow.quantization.quantize_and_dequantize":
            return updated
        message = (
            "`tf.quantization.quantize_and_dequantize` is deprecated from TF 2.4; its replacement "
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
