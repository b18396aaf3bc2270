"""TF24203 `plot-model-positional`: `plot_model` / `model_to_dot` arguments after `show_shapes` must be
passed by keyword."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import keyword_arg
from tf24migrate.rules.context import RuleContext

# The TF 2.3 signatures; `show_dtype` was inserted after `show_shapes` in 2.4.
_SIGNATURES = {
    "tensorflow.keras.utils.plot_model": (
        "model",
        "to_file",
        "show_shapes",
        "show_layer_names",
        "rankdir",
        "expand_nested",
        "dpi",
    ),
    "tensorflow.keras.utils.model_to_dot": (
        "model",
        "show_shapes",
        "show_layer_names",
        "rankdir",
        "expand_nested",
        "dpi",
        "subgraph",
    ),
}


class PlotModelPositional(Rule):
    """`plot_model` / `model_to_dot` arguments after `show_shapes` must be passed by keyword.

    TF 2.4 inserted `show_dtype` after `show_shapes`, so every positional argument after it
    silently changes meaning (`show_layer_names` would become `show_dtype`, and so on). The
    positional arguments from that point on become keywords of the TF 2.3 signature, which mean
    the same in TF 2.4 and later: from the 4th argument of `plot_model`, and from the 3rd of
    `model_to_dot` (its signature has no `to_file`). Calls passing `*args` are reported.

    Before: `tf.keras.utils.plot_model(model, "model.png", True, False)`
    After:  `tf.keras.utils.plot_model(model, "model.png", True, show_layer_names=False)`

    Versions: the keywords written exist since TF 2.0 (`plot_model` in
    tensorflow_core/python/keras/utils/vis_utils.py of the tensorflow 2.0.0 wheel); `show_dtype` is inserted
    at position 4 in 2.4 (tensorflow/python/keras/utils/vis_utils.py of the tensorflow-cpu 2.4.0 wheel).
    """

    code = "TF24203"
    name = "plot-model-positional"
    new_since = "2.0"
    old_removed = "2.4"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = ("plot_model", "model_to_dot")
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        params = _SIGNATURES.get(ctx.qualified_name(original.func) or "")
        if params is None:
            return updated
        first_shifted = params.index("show_shapes") + 1
        positional = [arg for arg in original.args if arg.keyword is None and not arg.star]
        name = "plot_model" if "to_file" in params else "model_to_dot"
        if any(arg.star == "*" for arg in original.args):
            ctx.report(
                original,
                f"`{name}` gained `show_dtype` after `show_shapes` in TF 2.4: pass the arguments after "
                "`show_shapes` by keyword instead of through `*args`.",
            )
            return updated
        if len(positional) <= first_shifted:
            return updated
        if len(positional) > len(params):
            ctx.report(original, f"`{name}` takes at most {len(params)} positional arguments in TF 2.3.")
            return updated
        args = list(updated.args)
        for index in range(first_shifted, len(positional)):
            args[index] = keyword_arg(params[index], args[index].value, like=args[index])
        replacement = updated.with_changes(args=args)
        return (
            ctx.report(
                original,
                f"`{name}` gained `show_dtype` after `show_shapes` in TF 2.4: pass the later arguments "
                f"by keyword ({', '.join(params[first_shifted : len(positional)])}).",
                replacement=replacement,
            )
            or updated
        )


RULES = (PlotModelPositional(),)
