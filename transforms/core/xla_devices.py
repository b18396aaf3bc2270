"""TF24504 `xla-devices`: The `XLA_CPU` / `XLA_GPU` devices are not registered by default from TF 2.4."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import indexed_result
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import word

from .._text import assigned_value, literal_value

_LISTINGS = {
    "tensorflow.config.list_logical_devices",
    "tensorflow.config.list_physical_devices",
    "tensorflow.config.experimental.list_logical_devices",
    "tensorflow.config.experimental.list_physical_devices",
}
_DEVICE_FUNCTIONS = {"tensorflow.device", *_LISTINGS}


_XLA_DEVICE = re.compile(r"XLA_(CPU|GPU)")


def _device_text(ctx: RuleContext, node: cst.CSTNode) -> str | None:
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

    A listing of every device (`list_logical_devices()`, no device type) indexed at a fixed position
    other than the first, directly, is reported too: on TF 2.3 such a listing holds `XLA_CPU:0` right
    after `CPU:0` (on a machine with one CPU: `CPU:0`, `XLA_CPU:0`), and an `XLA_GPU` for each GPU;
    from TF 2.4 it has no XLA device, so position 1 holds another device or none (`IndexError` on a
    machine with one CPU). Position 0, the CPU, positions counted from the end, slices and a listing
    indexed through a name are not reported.

    Reported: `with tf.device(tf.config.list_logical_devices()[1].name): ...`
    Write instead: `with tf.device(tf.config.list_logical_devices("GPU")[0].name): ...`

    Versions: XLA devices are not registered by default from TF 2.4 (TF 2.4's release notes); on a
    machine with one CPU, `list_logical_devices()` is `CPU:0`, `XLA_CPU:0` on TF 2.3.0 and `CPU:0` on
    TF 2.4.0 (run on both).
    """

    code = "TF24504"
    name = "xla-devices"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = ("XLA_CPU", "XLA_GPU", word("list_logical_devices"), word("list_physical_devices"))
    requires = IMPORTS_TENSORFLOW
    # the names bound to a device string; a listing is reported only where it is indexed
    follows = ("XLA_CPU", "XLA_GPU")

    def leave_Subscript(
        self, ctx: RuleContext, original: cst.Subscript, updated: cst.Subscript
    ) -> cst.BaseExpression:
        indexed = indexed_result(original)
        if indexed is None or ctx.qualified_name(indexed[0].func) not in _LISTINGS:
            return updated
        index = indexed[1]
        if isinstance(index, cst.Integer) and index.evaluated_value >= 1:
            ctx.report(
                original,
                f"TF 2.4 lists no `XLA_CPU` / `XLA_GPU` device by default: position {index.value} of "
                "this listing is another device, or none.\nOn TF 2.3 a listing of every device "
                "holds `XLA_CPU:0` right after `CPU:0`, and an `XLA_GPU` for each GPU; ask for the device "
                "type you mean instead (`list_logical_devices('GPU')[0]`), or set the environment variable "
                "`TF_XLA_FLAGS=--tf_xla_enable_xla_devices` before TensorFlow starts.",
            )
        return updated

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
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
                    "`tf.function` instead.\nUse `tf.function(fn, experimental_compile=True)` "
                    "(`jit_compile=True` from TF 2.5) instead "
                    "of placing ops on it, or set the environment variable "
                    "`TF_XLA_FLAGS=--tf_xla_enable_xla_devices` before TensorFlow starts.",
                )
            break
        return updated


RULES = (XlaDevices(),)
