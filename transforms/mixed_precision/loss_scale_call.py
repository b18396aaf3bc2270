"""TF24307 `loss-scale-call`: `opt.loss_scale()` raises on a `LossScaleOptimizer` from TF 2.4: read
`opt.loss_scale`."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.model.release_diff import (
    LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE,
    LOSS_SCALE_OPTIMIZER_CONFIG_GONE,
)
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for, indexed_result
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import Pattern, after_dot, any_of, attribute

from .._text import assigned_value
from ._common import (
    EXPERIMENTAL,
    STABLE,
)

# `opt.loss_scale.update(...)`, `opt.loss_scale._current_loss_scale`: see `_LOSS_SCALE_ATTRIBUTES`
_ATTRIBUTE_READ = Pattern(r"\bloss_scale\.[_a-z]", "loss_scale.")
_LOSS_SCALE_OPTIMIZERS = (f"{EXPERIMENTAL}.LossScaleOptimizer", f"{STABLE}.LossScaleOptimizer")
# The private attributes of TF 2.3's `LossScale` classes, read through some object's `loss_scale`
_PRIVATE_READ = Pattern(
    r"\bloss_scale\._(current_loss_scale|num_good_steps|loss_scale_value)\b", "loss_scale._"
)

# what TF 2.3's `LossScaleOptimizer` had and neither of TF 2.4's has (from the wheels)
_OPTIMIZER_READ = after_dot(*LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE)
_CONFIG_READ = Pattern(r"\bget_config[ \t]*\([ \t]*\)[ \t]*\[", "get_config")
# what to read instead of an attribute TF 2.4's optimizers lack
_ATTRIBUTE_INSTEAD = {
    "_hyper": "the hyperparameters are the inner optimizer's (`{receiver}._optimizer._hyper` on both; "
    "TF 2.3's own `_hyper` was empty)",
    # TF24219 says the same of a Keras optimizer's: TF 2.4's inner optimizer has none either
    "_clip_gradients": "clip with `tf.clip_by_norm` / `tf.clip_by_global_norm` (or the inner optimizer's "
    "`clipnorm`) instead: TF 2.4's optimizers clip in gradient transformers",
}
# the experimental class's `get_config()` keys, and what the stable one has instead
_CONFIG_INSTEAD = {
    "loss_scale": "`dynamic`, `initial_scale` and `dynamic_growth_steps`",
    "optimizer": "`inner_optimizer`",
}


def loss_scale_optimizer_evidence(ctx: RuleContext, receiver: cst.BaseExpression) -> str | None:
    """Why `receiver` is a `LossScaleOptimizer`, or None when the file does not show it: a
    construction (`LossScaleOptimizer(...)`, or a name bound to one in the same scope), `self` in a
    method of a subclass of it, or an enclosing `if isinstance(receiver, ...LossScaleOptimizer):`."""
    value = assigned_value(ctx, receiver) if isinstance(receiver, cst.Name) else receiver
    if isinstance(value, cst.Call) and ctx.qualified_name(value.func) in _LOSS_SCALE_OPTIMIZERS:
        return f"`{code_for(receiver)}` is built by `LossScaleOptimizer(...)`"
    text = code_for(receiver)
    if text == "self":
        for ancestor in ctx.ancestors:
            if isinstance(ancestor, cst.ClassDef):
                if any(ctx.qualified_name(base.value) in _LOSS_SCALE_OPTIMIZERS for base in ancestor.bases):
                    return f"`self` is a `{ancestor.name.value}`, a subclass of `LossScaleOptimizer`"
                break
    for ancestor in ctx.ancestors:
        if not isinstance(ancestor, cst.If):
            continue
        test = ancestor.test
        if (
            _calls_on(test, "isinstance", text, 2)
            and isinstance(test, cst.Call)
            and ctx.qualified_name(test.args[1].value) in _LOSS_SCALE_OPTIMIZERS
        ):
            return f"`{text}` is checked to be a `LossScaleOptimizer`"
    return None


def _calls_on(test: cst.BaseExpression, function: str, text: str, arity: int) -> bool:
    """Whether `test` is `function(<text>, ...)` with `arity` arguments (`isinstance(opt, ...)`)."""
    return (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Name)
        and test.func.value == function
        and len(test.args) == arity
        and code_for(test.args[0].value) == text
    )


class LossScaleCall(Rule):
    """`opt.loss_scale()` raises on a `LossScaleOptimizer` from TF 2.4: read `opt.loss_scale`.

    The 2.3 optimizer's `loss_scale` was a `LossScale` object, called to get the current scale;
    from TF 2.4 the `loss_scale` of both the stable and the experimental `LossScaleOptimizer` is
    the scale itself, a float32 tensor (Keras 2: TF 2.4–2.15 and tf_keras), and calling it raises
    `TypeError` (hence the severity). Keras 3 has neither: read `opt.dynamic_scale` there.

    Reported only where the receiver is visibly a `LossScaleOptimizer`: built by
    `LossScaleOptimizer(...)` (stable or experimental, a name bound to one in the same scope), `self`
    in a method of a class derived from it, or checked by an enclosing `if isinstance(opt,
    ...LossScaleOptimizer):`. Other `loss_scale()`
    calls (a `LossScale` object, the loss scalers of other libraries) are left alone, and so are
    files that do not import TensorFlow. Not rewritten: `loss_scale` may be a method of some
    other object bound to the same name. Also reported: an attribute of a TF 2.3 `LossScale` read
    on it (`opt.loss_scale.update(...)`, `opt.loss_scale._current_loss_scale`), which a tensor
    lacks. Not reported: code that runs only when `opt.loss_scale` is callable (`if
    callable(opt.loss_scale): scale = opt.loss_scale()`), which TF 2.4 never runs.

    A private attribute of TF 2.3's `LossScale` (`_current_loss_scale`, `_num_good_steps`,
    `_loss_scale_value`) read through any object's `loss_scale` is reported too, whatever the
    object: from TF 2.4 a `LossScaleOptimizer`'s `loss_scale` is a tensor, and the stable `Policy`
    has no `loss_scale`; only the experimental `Policy`, gone in TF 2.9, keeps a `LossScale` there,
    so the read fails once the code that makes the policy (maybe in another file) is migrated. Not
    reported there: the `except` clause of a `try` whose body reads the same `loss_scale` another
    way (`try: float(opt.loss_scale) except TypeError: opt.loss_scale._current_loss_scale`), the
    fallback that only TF 2.3 runs.

    Also reported, on a visibly `LossScaleOptimizer` receiver: what TF 2.3's optimizer had and
    neither of TF 2.4's has (the experimental class is a `LossScaleOptimizerV1` there), so that
    renaming the class (TF24305) leaves the read failing: its attributes
    `release_diff.LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE` (`opt._hyper`, AttributeError) and its
    `get_config()` keys `release_diff.LOSS_SCALE_OPTIMIZER_CONFIG_GONE` (`opt.get_config()["loss_scale"]`,
    KeyError: TF 2.4 writes `dynamic`, `initial_scale`, `dynamic_growth_steps` and `inner_optimizer`).
    The hyperparameters are the inner optimizer's: `opt._optimizer._hyper` on both (TF 2.3's own
    `_hyper` was empty).

    Reported: `opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(sgd, "dynamic")` then `scale = opt.loss_scale()`
    Write instead: `scale = opt.loss_scale`

    Versions: `LossScaleOptimizer.loss_scale` is a property from TF 2.4 (TF 2.4's release notes); the
    attributes and `get_config()` keys are those of `dir()` and `get_config()` of the
    `LossScaleOptimizer`s of the tensorflow-cpu 2.3.0 and 2.4.0 wheels (`python -m tf24migrate.dev
    releases`; `_hyper`, `get_config()["loss_scale"]` and `_optimizer._hyper` executed on both).
    """

    code = "TF24307"
    name = "loss-scale-call"
    changed_in = "2.4"
    old_removed = "2.4"  # calling the tensor raises
    fix = None
    severity = Severity.ERROR
    # and any `.loss_scale`: a `try` body that reads it is not left out of the tree (`_is_fallback`)
    triggers = (
        "loss_scale(",
        _ATTRIBUTE_READ,
        "LossScaleOptimizer",
        attribute("loss_scale"),
        _OPTIMIZER_READ,
        _CONFIG_READ,
    )
    follows = ("loss_scale(", _ATTRIBUTE_READ, "LossScaleOptimizer")
    # every receiver it reports is shown to be a `LossScaleOptimizer` (not `get_loss_scale(...)`)
    requires = (
        any_of("loss_scale(", _ATTRIBUTE_READ, _OPTIMIZER_READ, _CONFIG_READ),
        any_of("LossScaleOptimizer", _PRIVATE_READ),
        *IMPORTS_TENSORFLOW,
    )

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value == "loss_scale" and not original.args:
            shown = code_for(func)
            _report_of_optimizer(
                ctx,
                original,
                func,
                lambda evidence: (
                    f"`{shown}()` raises TypeError from TF 2.4: read `{shown}` without calling "
                    f"it.\nA `LossScaleOptimizer`'s `loss_scale` is a tensor from TF 2.4 ({evidence}); under "
                    f"Keras 3 read `{code_for(func.value)}.dynamic_scale`."
                ),
            )
        return updated

    def leave_Subscript(
        self, ctx: RuleContext, original: cst.Subscript, updated: cst.Subscript
    ) -> cst.BaseExpression:
        indexed = indexed_result(original)
        if indexed is None:
            return updated
        config, key = indexed
        if not (
            isinstance(config.func, cst.Attribute)
            and config.func.attr.value == "get_config"
            and isinstance(key, cst.SimpleString)
            and key.evaluated_value in LOSS_SCALE_OPTIMIZER_CONFIG_GONE
        ):
            return updated
        instead = _CONFIG_INSTEAD.get(str(key.evaluated_value), "the keys TF 2.4 writes")
        _report_gone(
            ctx,
            original,
            config.func.value,
            f"raises KeyError from TF 2.4, with the experimental class too: read {instead} instead",
            "from TF 2.4 both `LossScaleOptimizer`s write `dynamic`, `initial_scale`, "
            "`dynamic_growth_steps` and `inner_optimizer` in their config",
        )
        return updated

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        name = original.attr.value
        if name in LOSS_SCALE_OPTIMIZER_ATTRIBUTES_GONE:
            instead = _ATTRIBUTE_INSTEAD.get(name, "{receiver}'s inner optimizer may hold it")
            _report_gone(
                ctx,
                original,
                original.value,
                "raises AttributeError from TF 2.4, with the experimental class too: "
                + instead.format(receiver=code_for(original.value)),
                f"TF 2.4's `LossScaleOptimizer`s have no `{name}` of their own",
            )
            return updated
        scale = original.value
        if (
            original.attr.value in _LOSS_SCALE_ATTRIBUTES
            and isinstance(scale, cst.Attribute)
            and scale.attr.value == "loss_scale"
        ):
            shown = code_for(scale)
            if (
                original.attr.value.startswith("_")
                and loss_scale_optimizer_evidence(ctx, scale.value) is None
            ):
                _report_private_read(ctx, original, scale)
                return updated
            _report_of_optimizer(
                ctx,
                original,
                scale,
                lambda evidence: (
                    f"`{code_for(original)}` raises AttributeError from TF 2.4: `{shown}` is the "
                    f"current scale, a tensor; read `{shown}` itself.\nA `LossScaleOptimizer`'s `loss_scale` is "
                    f"no longer a `LossScale` object from TF 2.4 ({evidence}); its settings are the optimizer's "
                    "`dynamic`, `initial_scale` and `dynamic_growth_steps`."
                ),
            )
        return updated


def _report_gone(
    ctx: RuleContext, node: cst.CSTNode, optimizer: cst.BaseExpression, what: str, why: str
) -> None:
    """Report `node`, a read of what TF 2.3's `LossScaleOptimizer` had and neither of TF 2.4's has,
    where the file shows that `optimizer` is one: `what` it does (after the read's code), and `why`."""
    evidence = loss_scale_optimizer_evidence(ctx, optimizer)
    if evidence is not None:
        ctx.report(
            node,
            f"`{code_for(node)}` {what}.\n{sentence(evidence)}; {why}.",
            evidence=evidence,
        )


def _report_of_optimizer(
    ctx: RuleContext, node: cst.CSTNode, scale: cst.Attribute, message: Callable[[str], str]
) -> None:
    """Report `node`, a use of `scale` (`opt.loss_scale`) that fails from TF 2.4, with `message`
    given the evidence that `opt` is a `LossScaleOptimizer`; not where the file does not show it,
    nor in code that runs only when `scale` is callable (`_runs_only_if_callable`)."""
    if _runs_only_if_callable(ctx, scale, node):
        return
    evidence = loss_scale_optimizer_evidence(ctx, scale.value)
    if evidence is not None:
        ctx.report(node, message(evidence), evidence=evidence)


def _report_private_read(ctx: RuleContext, node: cst.Attribute, scale: cst.Attribute) -> None:
    """Report `node`, a private attribute of TF 2.3's `LossScale` read on `scale` (`x.loss_scale`),
    whatever `x` is; not in code that runs only when `scale` is callable, nor in the `except`
    clause of a `try` whose body reads `scale` too (`_is_fallback`)."""
    if _runs_only_if_callable(ctx, scale, node) or _is_fallback(ctx, scale):
        return
    shown = code_for(scale)
    ctx.report(
        node,
        f"`{code_for(node)}` reads TF 2.3's `LossScale`: from TF 2.4 `{shown}` is a tensor on a "
        "`LossScaleOptimizer`, and the stable `Policy` has no `loss_scale`.\nRead the current scale "
        "as the `loss_scale` of the `LossScaleOptimizer` (a tensor; `model.optimizer.loss_scale` after "
        "`compile` under 'mixed_float16'); only the experimental `Policy`, gone in TF 2.9, keeps a "
        "`LossScale`, and this read fails once the code that makes it is migrated.",
    )


def _is_fallback(ctx: RuleContext, scale: cst.Attribute) -> bool:
    """Whether the node being left is in an `except` clause of a `try` whose body reads `scale`."""
    text = code_for(scale)
    child: cst.CSTNode | None = None
    for ancestor in ctx.ancestors:
        if isinstance(ancestor, cst.Try) and isinstance(child, cst.ExceptHandler):
            lines, span = ctx.node_lines(ancestor)
            handler_line = ctx.node_lines(child)[1].line
            return text in "\n".join(lines[: handler_line - span.line])
        child = ancestor
    return False


# What a TF 2.3 `LossScale` has and a tensor has not (tensorflow/python/training/experimental/
# loss_scale.py of the tensorflow-cpu 2.3.0 wheel).
_LOSS_SCALE_ATTRIBUTES = frozenset(
    {
        "update",
        "get_config",
        "initial_loss_scale",
        "increment_period",
        "multiplier",
        "_current_loss_scale",
        "_num_good_steps",
        "_loss_scale_value",
    }
)


def _runs_only_if_callable(ctx: RuleContext, scale: cst.Attribute, node: cst.CSTNode) -> bool:
    """Whether `node`, being left, runs only when `scale` (`opt.loss_scale`) is callable: in the
    body of `if callable(opt.loss_scale):` or of `... if callable(opt.loss_scale) else ...`, code
    written for TF 2.3 that TF 2.4 never runs."""
    text = code_for(scale)
    child = node
    for ancestor in ctx.ancestors:
        if (
            isinstance(ancestor, (cst.If, cst.IfExp))
            and child is ancestor.body
            and _calls_on(ancestor.test, "callable", text, 1)
        ):
            return True
        child = ancestor
    return False


RULES = (LossScaleCall(),)
