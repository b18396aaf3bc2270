"""TF24506 `xla-experimental-compile`: `tf.xla.experimental.compile` is deprecated from TF 2.4: use `tf.function(experimental_compile=True)`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import UnboundArguments, bind_arguments, code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import imported_or_attribute, word


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
    2.0.0 wheel); `tf.xla.experimental.compile` is deprecated from 2.4 and still exported in 2.15.1 (and still runs on
    TF 2.4.0, executed).
    """

    code = "TF24506"
    name = "xla-experimental-compile"
    new_since = "2.1"
    fix = None
    severity = Severity.INFO
    # the name is only reachable through an import that spells `xla`, and the file spells the rest
    triggers = (word("xla"),)
    # `compile` as the module's attribute or imported from it, not `experimental_compile=True`
    requires = (*IMPORTS_TENSORFLOW, "experimental", imported_or_attribute("compile"))

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
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


RULES = (XlaExperimentalCompile(),)
