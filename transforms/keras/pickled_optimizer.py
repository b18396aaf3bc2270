"""TF24229 `pickled-optimizer`: `pickle` cannot save a Keras optimizer from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import word

from .._text import assigned_value
from ._symbolic import is_keras_object

_PICKLERS = frozenset({"pickle.dump", "pickle.dumps", "_pickle.dump", "_pickle.dumps"})
_OPTIMIZERS = "tensorflow.keras.optimizers."


def _optimizer_evidence(ctx: RuleContext, node: cst.BaseExpression, depth: int = 2) -> str | None:
    """What shows `node` is a Keras optimizer, as a noun phrase: a model's `.optimizer`, a
    `tf.keras.optimizers.*(...)` construction, or a name bound to one of these in the same scope
    (`depth` names deep); None where nothing does."""
    if (
        isinstance(node, cst.Attribute)
        and node.attr.value == "optimizer"
        and is_keras_object(ctx, node.value)
    ):
        return f"`{abbreviated(node)}`, a Keras model's optimizer"
    if isinstance(node, cst.Call) and (ctx.qualified_name(node.func) or "").startswith(_OPTIMIZERS):
        return f"`{abbreviated(node.func)}(...)`"
    if isinstance(node, cst.Name) and depth:
        value = assigned_value(ctx, node)
        found = _optimizer_evidence(ctx, value, depth - 1) if value is not None else None
        return f"`{node.value}`, bound to {found}" if found else None
    return None


class PickledOptimizer(Rule):
    """`pickle` cannot save a Keras optimizer from TF 2.4.

    TF 2.4's `OptimizerV2.__init__` keeps the gradient-clipping functions
    `make_gradient_clipnorm_fn` and its siblings return, local functions, even where no clipping is
    asked, and `pickle` cannot name a local function: `pickle.dump(model.optimizer, f)` raises
    `AttributeError` ("Can't pickle local object 'make_gradient_clipnorm_fn.<locals>.<lambda>'"),
    and TF 2.15 raises `TypeError` (executed on TF 2.3.0, which pickles it, 2.4.0 and 2.15.1;
    beringresearch/ivis#83). The optimizer's config pickles, and `from_config` rebuilds it; its
    state is `get_weights()`.

    Reported at `pickle.dump(x, ...)` or `pickle.dumps(x)` where `x` is visibly a Keras optimizer:
    a model's `.optimizer`, a `tf.keras.optimizers.*(...)` construction, or a name bound to one
    of these in the same scope. Not rewritten: what to save (the config, the weights) and how to
    load it is the author's choice.

    Reported:

        import pickle

        pickle.dump(model.optimizer, f)

    Write instead:

        import pickle

        pickle.dump(model.optimizer.get_config(), f)

    Versions: `OptimizerV2.__init__` sets `_clipnorm_fn`, `_global_clipnorm_fn` and
    `_clipvalue_fn` (tensorflow/python/keras/optimizer_v2/optimizer_v2.py) in the tensorflow-cpu
    2.4.0 wheel, not in 2.3.0.
    """

    code = "TF24229"
    name = "pickled-optimizer"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (word("dump", "dumps"),)
    requires = (*IMPORTS_TENSORFLOW, word("pickle"), word("optimizer", "optimizers"))
    # what a line naming an optimizer binds is followed to the `dump` using it
    follows = (word("optimizer", "optimizers"),)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if (
            ctx.qualified_name(original.func) not in _PICKLERS
            or not original.args
            or original.args[0].keyword
        ):
            return updated
        value = original.args[0].value
        evidence = _optimizer_evidence(ctx, value)
        if evidence is None:
            return updated
        shown = abbreviated(value)
        ctx.report(
            original,
            f"`{abbreviated(original.func)}` of a Keras optimizer raises from TF 2.4: save "
            f"`{shown}.get_config()` instead (and `{shown}.get_weights()` for its state).\n"
            f"What it is given is {evidence}. TF 2.4's optimizers hold local functions "
            "(their gradient clipping), which `pickle` cannot save; rebuild one with "
            "`from_config(config)`.",
            evidence=evidence,
        )
        return updated


RULES = (PickledOptimizer(),)
