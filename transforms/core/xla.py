"""XLA: devices off by default (TF24504) and `experimental_compile` (TF24506)."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import UnboundArguments, bind_arguments, code_for
from tf24migrate.rules.needles import Pattern

from .._text import assigned_value, literal_value

_DEVICE_FUNCTIONS = {
    "tensorflow.device",
    "tensorflow.config.list_logical_devices",
    "tensorflow.config.list_physical_devices",
    "tensorflow.config.experimental.list_logical_devices",
    "tensorflow.config.experimental.list_physical_devices",
}
_XLA_DEVICE = re.compile(r"XLA_(CPU|GPU)")


def _device_text(ctx, node: cst.CSTNode) -> str | None:
    """The text of a device string: a literal, an f-string's literal parts, or a name assigned one."""
    value = literal_value(node)
    if value is not None:
        return value
    if isinstance(node, cst.FormattedString):
        return "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
    if isinstance(node, cst.Name):
        assigned = assigned_value(ctx, node)
        return literal_value(assigned) if assigned is not None else None
    return None


class XlaDevices(Rule):
    """The `XLA_CPU` / `XLA_GPU` devices are not registered by default from TF 2.4.

    Placing ops on `/device:XLA_GPU:0`, or listing `XLA_GPU` devices, finds no device unless
    `TF_XLA_FLAGS=--tf_xla_enable_xla_devices` is set (a flag the release notes call temporary).
    The way to compile with XLA is `tf.function(experimental_compile=True)` (`jit_compile=True` from
    TF 2.5). Only device strings passed to `tf.device(...)` or `tf.config.list_logical_devices` /
    `list_physical_devices` (directly or through a name assigned the string) are reported, never
    comments, docstrings or log text. Not rewritten: the compilation boundary is a design choice.

    Reported: `with tf.device("/device:XLA_GPU:0"): y = model(x)`
    Write instead: `y = tf.function(model, experimental_compile=True)(x)`

    Versions: XLA devices are not registered by default from TF 2.4 (TF 2.4's release notes).
    """

    code = "TF24504"
    name = "xla-devices"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = ("XLA_CPU", "XLA_GPU")
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) not in _DEVICE_FUNCTIONS:
            return updated
        for arg in original.args:
            if arg.keyword is not None and arg.keyword.value not in ("device_name", "device_type"):
                continue
            match = _XLA_DEVICE.search(_device_text(ctx, arg.value) or "")
            if match:
                ctx.report(
                    arg.value,
                    f"TF 2.4 no longer registers the `{match.group(0)}` device by default: compile with "
                    "`tf.function(fn, experimental_compile=True)` (`jit_compile=True` from TF 2.5) instead "
                    "of placing ops on it, or set the environment variable "
                    "`TF_XLA_FLAGS=--tf_xla_enable_xla_devices` before TensorFlow starts.",
                )
            break
        return updated


class XlaExperimentalCompile(Rule):
    """`tf.xla.experimental.compile` is deprecated from TF 2.4: use `tf.function(experimental_compile=True)`.

    TF 2.4 points to `tf.function(fn, experimental_compile=True)`; from TF 2.5 the keyword is
    `jit_compile=True` (`experimental_compile` became its deprecated alias). The message spells the
    call with your arguments. Not rewritten: `xla.experimental.compile` returns a list of outputs
    where the `tf.function` returns what `fn` returns.

    Reported: `outputs = tf.xla.experimental.compile(step, inputs=[x, y])`
    Write instead: `outputs = tf.function(step, experimental_compile=True)(x, y)`

    Versions: `tf.function(experimental_compile=...)` exists since TF 2.1
    (tensorflow_core/python/eager/def_function.py of the tensorflow-cpu 2.1.0 wheel; absent in the tensorflow
    2.0.0 wheel); `tf.xla.experimental.compile` is deprecated from 2.4 and still exported in 2.15.1.
    """

    code = "TF24506"
    name = "xla-experimental-compile"
    new_since = "2.1"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # the name is only reachable through an import that spells `xla`, and the file spells the rest
    triggers = (Pattern(r"\bxla\b", "xla"),)
    requires = (*IMPORTS_TENSORFLOW, "experimental", "compile")

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != "tensorflow.xla.experimental.compile":
            return updated
        try:
            bound = bind_arguments(original.args, ("computation", "inputs"))
        except UnboundArguments:
            bound = {}
        computation = code_for(bound["computation"].value) if "computation" in bound else "fn"
        inputs = _spread(bound["inputs"].value) if "inputs" in bound else ""
        ctx.report(
            original,
            "`tf.xla.experimental.compile` is deprecated from TF 2.4: write "
            f"`tf.function({computation}, experimental_compile=True)({inputs})` (`jit_compile=True` from "
            "TF 2.5); it returns what the function returns, not a list.",
        )
        return updated


def _spread(inputs: cst.BaseExpression) -> str:
    """`inputs` passed as positional arguments: `x, y` for a literal `[x, y]`, else `*inputs`."""
    if isinstance(inputs, (cst.List, cst.Tuple)) and not any(
        isinstance(element, cst.StarredElement) for element in inputs.elements
    ):
        return ", ".join(code_for(element.value) for element in inputs.elements)
    return f"*{code_for(inputs)}"
