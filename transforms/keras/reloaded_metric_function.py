"""TF24228 `reloaded-metric-function`: a model compiled with a plain function as a metric, saved
and loaded with that function in `custom_objects`, cannot be trained or evaluated in TF 2.4 (a
TF 2.4 bug)."""

from __future__ import annotations

import ast

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import word
from tf24migrate.rules.text import of_the_last_text, parsed_or_none

from .._text import assigned_value

_LOAD_MODEL = frozenset({"tensorflow.keras.models.load_model"})
_STEPS = frozenset({"fit", "evaluate", "train_on_batch", "test_on_batch"})


@of_the_last_text
def _metric_functions(source: str) -> frozenset[str]:
    """The functions `source` defines (`def`) and gives as metrics to a `compile(metrics=...)`:
    in a list or tuple, or as the values of a dictionary."""
    tree = parsed_or_none(source)
    if tree is None:
        return frozenset()
    defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    metrics: set[str] = set()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "compile"
        ):
            continue
        for given in (k.value for k in node.keywords if k.arg == "metrics"):
            items = given.values if isinstance(given, ast.Dict) else [given]
            for item in items:
                elements = item.elts if isinstance(item, (ast.List, ast.Tuple)) else [item]
                metrics.update(e.id for e in elements if isinstance(e, ast.Name))
    return frozenset(metrics & defined)


def _revived_metric(ctx: RuleContext, load: cst.Call) -> str | None:
    """The metric function of the file that `load_model(..., custom_objects={...})` revives, when
    the model is compiled as it was saved (no `compile=False`)."""
    custom_objects = None
    for arg in load.args:
        if arg.keyword is None:
            continue
        if arg.keyword.value == "compile" and not (
            isinstance(arg.value, cst.Name) and arg.value.value == "True"
        ):
            return None
        if arg.keyword.value == "custom_objects":
            custom_objects = arg.value
    if not isinstance(custom_objects, cst.Dict):
        return None
    metrics = _metric_functions(ctx.source)
    for element in custom_objects.elements:
        value = getattr(element, "value", None)
        if isinstance(value, cst.Name) and value.value in metrics:
            return value.value
    return None


class ReloadedMetricFunction(Rule):
    """A model compiled with a function as a metric cannot be trained again once reloaded, in TF 2.4.

    A model compiled with a plain function in `metrics=` (`def cmetrics(y_true, y_pred)`), saved
    (HDF5 or SavedModel) and loaded with `load_model(path, custom_objects={"cmetrics": cmetrics})`
    comes back compiled with a metric whose name is the function itself, not its name: its `fit`
    and `evaluate` then fail sorting the step's results (`TypeError: '<' not supported between
    instances of 'function' and 'str'`; executed on TF 2.3.0 and 2.4.0; `predict` works). A TF 2.4
    bug (tensorflow/tensorflow#45903). The workaround runs on both: load with `compile=False` and
    `compile` the model again with its loss, optimizer and metrics.

    Reported at `fit`, `evaluate`, `train_on_batch` or `test_on_batch` of a name bound to
    `tf.keras.models.load_model(...)` whose `custom_objects` dictionary gives a function the file
    defines and passes to `compile(metrics=...)`, unless it loads with `compile=False`. Not
    rewritten: the `compile` to add needs the model's loss and optimizer.

    Reported:

        def cmetrics(y_true, y_pred):
            return tf.reduce_mean(y_pred)

        model.compile(loss="mse", optimizer="adam", metrics=[cmetrics])
        model.save("model.h5")
        model = tf.keras.models.load_model("model.h5", custom_objects={"cmetrics": cmetrics})
        model.fit(x, y)

    Write instead:

        def cmetrics(y_true, y_pred):
            return tf.reduce_mean(y_pred)

        model.compile(loss="mse", optimizer="adam", metrics=[cmetrics])
        model.save("model.h5")
        model = tf.keras.models.load_model("model.h5", custom_objects={"cmetrics": cmetrics}, compile=False)
        model.compile(loss="mse", optimizer="adam", metrics=[cmetrics])
        model.fit(x, y)

    Versions: `Model._minimum_control_deps` (tensorflow/python/keras/engine/training.py) flattens
    the step's results, keyed by the metrics' names, in the tensorflow-cpu 2.4.0 wheel, where the
    reloaded metric's name is the function; 2.3.0 trains and evaluates the same reloaded model.
    """

    code = "TF24228"
    name = "reloaded-metric-function"
    old_removed = "2.4"
    changed_in = "2.4"
    fix = None
    severity = Severity.ERROR
    # what `load_model(...)` binds is followed to its `fit`
    triggers = (word("load_model"),)
    requires = (*IMPORTS_TENSORFLOW, word("load_model"), word("custom_objects"), word("metrics"))

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not (
            isinstance(func, cst.Attribute) and func.attr.value in _STEPS and isinstance(func.value, cst.Name)
        ):
            return updated
        load = assigned_value(ctx, func.value)
        if not isinstance(load, cst.Call) or ctx.qualified_name(load.func) not in _LOAD_MODEL:
            return updated
        metric = _revived_metric(ctx, load)
        if metric is None:
            return updated
        model = func.value.value
        evidence = (
            f"`{model}` is loaded with `custom_objects` giving `{metric}`, a metric function of `compile`"
        )
        ctx.report(
            original,
            f"`{code_for(func)}(...)` fails on TF 2.4 after `load_model` revives the metric function "
            f"`{metric}`: load with `compile=False`, then `{model}.compile(...)` again with its metrics.\n"
            f"{evidence}; TF 2.4 names the reloaded metric by the function itself, and the step fails "
            "sorting its results (TypeError: '<' not supported between instances of 'function' and "
            "'str'): a TF 2.4 bug, tensorflow/tensorflow#45903.",
            evidence=evidence,
        )
        return updated


RULES = (ReloadedMetricFunction(),)
