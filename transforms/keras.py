"""tf.keras (TF242xx): renamed compile keyword, and the `plot_model` signature change."""

from __future__ import annotations

import libcst as cst

from tf24migrate.calls import keyword_arg
from tf24migrate.findings import Fix, Severity
from tf24migrate.rule_kinds import RenameKeyword
from tf24migrate.rules import Rule

STEPS_PER_EXECUTION = RenameKeyword(
    code="TF24201",
    name="steps-per-execution",
    callees=("compile",),
    old="experimental_steps_per_execution",
    new="steps_per_execution",
    severity=Severity.WARNING,
    message="`compile(experimental_steps_per_execution=)` is `steps_per_execution=` from TF 2.4 "
    "(Keras 3 rejects the old keyword).",
    doc="""
    `Model.compile(experimental_steps_per_execution=N)` is `steps_per_execution=N` from TF 2.4.

    Keras 2 still accepts the old keyword with a warning; Keras 3 (the default `tf.keras` from
    TF 2.16) raises `TypeError`. Matched on `.compile(...)` calls by method name.

    Before: `model.compile(optimizer="sgd", loss="mse", experimental_steps_per_execution=8)`
    After:  `model.compile(optimizer="sgd", loss="mse", steps_per_execution=8)`
    """,
)

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
    """

    code = "TF24203"
    name = "plot-model-positional"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = ("plot_model", "model_to_dot")

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
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


RULES = (STEPS_PER_EXECUTION, PlotModelPositional())
