"""TF24219 `optimizer-hooks`: the methods of Keras optimizers that subclasses override or call
changed in TF 2.4: `minimize` (called by `Model.fit`) and `_compute_gradients` take `tape`,
`_aggregate_gradients` returns (gradient, variable) pairs, `_clip_gradients` is gone."""

from __future__ import annotations

import ast

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import Pattern, any_of, word
from tf24migrate.rules.text import parsed_or_none

from .._text import assigned_value

_HOOKS = word("_compute_gradients", "_aggregate_gradients", "_clip_gradients")
# an override of `minimize` (its calls are the users' own, and many)
_MINIMIZE_DEF = Pattern(r"\bdef[ \t]+minimize\b", "minimize")
_OPTIMIZER_MODULES = ("tensorflow.keras.optimizers.", "tensorflow.python.keras.optimizer_v2.")


def _is_keras_optimizer_class(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    return (ctx.qualified_name(node) or "").startswith(_OPTIMIZER_MODULES)


def _optimizer_class(ctx: RuleContext) -> cst.ClassDef | None:
    """The class the node being left is a method of, when it derives from a Keras optimizer."""
    for ancestor in ctx.ancestors:
        if isinstance(ancestor, cst.ClassDef):
            if any(_is_keras_optimizer_class(ctx, base.value) for base in ancestor.bases):
                return ancestor
            return None
    return None


def _method_class(ctx: RuleContext) -> cst.ClassDef | None:
    """The class the function being left is a method of (defined in its body), if any."""
    ancestors = ctx.ancestors
    if len(ancestors) >= 2 and isinstance(ancestors[1], cst.ClassDef):
        return ancestors[1]
    return None


def _hook_class(ctx: RuleContext) -> tuple[str, str] | None:
    """The class whose method is being left, and why its methods are a Keras optimizer's: it
    derives from one, or it is a mixin of the file that a class of the file puts before one."""
    cls = _optimizer_class(ctx)
    if cls is not None:
        return cls.name.value, f"`{cls.name.value}` is a Keras optimizer"
    cls = _method_class(ctx)
    combined = _combined_with_optimizer(ctx, cls.name.value) if cls is not None else None
    if cls is None or combined is None:
        return None
    return (
        cls.name.value,
        f"`{combined[0]}` combines `{cls.name.value}` with `{combined[1]}`, a Keras optimizer",
    )


def _combined_with_optimizer(ctx: RuleContext, mixin: str) -> tuple[str, str] | None:
    """A class of the file that lists the class `mixin` among its bases before a Keras optimizer
    (`class AdamW(Mixin, tf.keras.optimizers.Adam)`, where the mixin's methods come first): its
    name and that base, as written."""
    tree = parsed_or_none(ctx.source)
    for node in ast.walk(tree) if tree is not None else ():
        if not isinstance(node, ast.ClassDef):
            continue
        at = next((i for i, b in enumerate(node.bases) if isinstance(b, ast.Name) and b.id == mixin), None)
        if at is None:
            continue
        for base in node.bases[at + 1 :]:
            written = ast.unparse(base)
            if _is_keras_optimizer_class(ctx, cst.parse_expression(written)):
                return node.name, written
    return None


def _takes_tape(params: cst.Parameters) -> bool:
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    return "tape" in names or isinstance(params.star_kwarg, cst.Param)


def _optimizer_evidence(ctx: RuleContext, receiver: cst.BaseExpression) -> str | None:
    """Why `receiver` is a Keras optimizer: built by `tf.keras.optimizers.X(...)` (a name bound to
    it in the same scope), or `self` in a method of a class derived from one."""
    value = assigned_value(ctx, receiver) if isinstance(receiver, cst.Name) else receiver
    if isinstance(value, cst.Call) and _is_keras_optimizer_class(ctx, value.func):
        return f"`{code_for(receiver)}` is built by `{code_for(value.func)}(...)`"
    if code_for(receiver) == "self":
        cls = _optimizer_class(ctx)
        if cls is not None:
            return f"`self` is a `{cls.name.value}`, a Keras optimizer"
    return None


def _returns_bare_gradients(function: cst.FunctionDef) -> cst.Return | None:
    """A `return` of `function` whose value is visibly a list of gradients, not of pairs: a list,
    list comprehension or generator whose items are not tuples (`[g for g, _ in grads_and_vars]`)."""
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        if isinstance(node, cst.Return) and node.value is not None:
            value = node.value
            if isinstance(value, (cst.ListComp, cst.GeneratorExp)) and not isinstance(value.elt, cst.Tuple):
                return node
            if (
                isinstance(value, cst.List)
                and value.elements
                and not any(
                    isinstance(e, cst.Element) and isinstance(e.value, cst.Tuple) for e in value.elements
                )
            ):
                return node
        stack.extend(node.children)
    return None


class OptimizerHooks(Rule):
    """The methods of Keras optimizers that subclasses override or call changed in TF 2.4.

    Projects that extend `tf.keras.optimizers` (Horovod's distributed optimizers, gradient
    accumulators, clipping wrappers, weight-decay mixins) override or call methods TF 2.4 changed
    (executed on TF 2.3.0 and 2.4.0):
    - `Model.fit` calls `optimizer.minimize(loss, var_list, tape=tape)`: an override of `minimize`
      without a `tape` parameter (or `**kwargs`) raises `TypeError` under `fit`;
    - `minimize` calls `_compute_gradients(loss, var_list=..., grad_loss=..., tape=tape)`: an
      override without a `tape` parameter (or `**kwargs`) raises `TypeError`;
    - `apply_gradients` gives `_aggregate_gradients(grads_and_vars)` the pairs and expects
      (gradient, variable) pairs back: an override that returns the gradients alone (TF 2.3's
      contract) fails in `apply_gradients`;
    - `_clip_gradients` is gone (clipping is a gradient transformer): calling it raises
      `AttributeError`.

    Reported only in a class derived from a Keras optimizer (`tf.keras.optimizers.*`,
    `tensorflow.python.keras.optimizer_v2.*`) or in a mixin (a class of the file that a class of
    the file puts before a Keras optimizer among its bases: `class AdamW(Mixin,
    tf.keras.optimizers.Adam)`), and `_aggregate_gradients` only where a `return`
    visibly gives gradients alone (a list or comprehension of non-tuples); `_clip_gradients`
    where the receiver is such a class's `self` or an optimizer built in the same scope. Not
    rewritten: the body must follow, and TF 2.3's `minimize` takes no `tape` to pass on.

    Reported:

        class ClippedSGD(tf.keras.optimizers.SGD):
            def _compute_gradients(self, loss, var_list, grad_loss=None):
                return super()._compute_gradients(loss, var_list, grad_loss)

    Write instead:

        class ClippedSGD(tf.keras.optimizers.SGD):
            def _compute_gradients(self, loss, var_list, grad_loss=None, tape=None):
                return super()._compute_gradients(loss, var_list, grad_loss, tape=tape)

    Reported:

        class DecoupledWeightDecayExtension:
            def minimize(self, loss, var_list, grad_loss=None, name=None):
                return super().minimize(loss, var_list, grad_loss=grad_loss, name=name)

        class AdamW(DecoupledWeightDecayExtension, tf.keras.optimizers.Adam):
            pass

    Write instead:

        class DecoupledWeightDecayExtension:
            def minimize(self, loss, var_list, grad_loss=None, name=None, tape=None):
                return super().minimize(loss, var_list, grad_loss=grad_loss, name=name, tape=tape)

        class AdamW(DecoupledWeightDecayExtension, tf.keras.optimizers.Adam):
            pass

    Versions: `Model.train_step` calls `minimize(..., tape=tape)` from TF 2.4
    (tensorflow/python/keras/engine/training.py; TF 2.3.0's calls a module function `_minimize`),
    `OptimizerV2.minimize` takes `tape` from TF 2.4, `OptimizerV2._compute_gradients` takes `tape`, `_aggregate_gradients` returns pairs
    and `_clip_gradients` is gone from TF 2.4 (tensorflow/python/keras/optimizer_v2/optimizer_v2.py
    of the tensorflow-cpu 2.3.0 and 2.4.0 wheels; TF 2.4's release notes: `minimize` takes a `tape`).
    """

    code = "TF24219"
    name = "optimizer-hooks"
    old_removed = "2.4"
    changed_in = "2.4"
    fix = None
    severity = Severity.ERROR
    # the hooks, and the lines building an optimizer, whose bindings `_clip_gradients` reads (not
    # followed: an optimizer's other uses do not matter)
    triggers = (_HOOKS, _MINIMIZE_DEF, Pattern(r"\boptimizers\.\w+[ \t]*\(", "optimizers."))
    requires = (*IMPORTS_TENSORFLOW, any_of(_HOOKS, _MINIMIZE_DEF))
    follows = (_HOOKS, _MINIMIZE_DEF)

    def leave_FunctionDef(
        self, ctx: RuleContext, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.BaseStatement:
        name = original.name.value
        if name == "minimize":
            self._minimize_without_tape(ctx, original)
            return updated
        if name not in ("_compute_gradients", "_aggregate_gradients"):
            return updated
        found_class = _hook_class(ctx)
        if found_class is None:
            return updated
        cls, evidence = found_class
        if name == "_compute_gradients":
            if not _takes_tape(original.params):
                ctx.report(
                    original.name,
                    f"`{cls}._compute_gradients` is called with `tape=` from TF 2.4: add a "
                    "`tape=None` parameter and pass it on (`super()._compute_gradients(..., tape=tape)`).\n"
                    f"{evidence}; TF 2.4's `minimize(loss, var_list, tape=None)` passes its tape to "
                    "`_compute_gradients`, and without the parameter the call raises TypeError.",
                    evidence=evidence,
                )
            return updated
        found = _returns_bare_gradients(original)
        if found is not None:
            ctx.report(
                original.name,
                f"`{cls}._aggregate_gradients` must return (gradient, variable) pairs from TF 2.4: "
                f"return `list(zip(gradients, variables))`.\n{evidence}; `{code_for(found).strip()}` gives "
                "the gradients alone, TF 2.3's contract, and TF 2.4's `apply_gradients` fails reading pairs from it.",
                evidence=evidence,
            )
        return updated

    def _minimize_without_tape(self, ctx: RuleContext, original: cst.FunctionDef) -> None:
        """Report an override of `minimize` without `tape` in a Keras optimizer, or in a mixin of
        the file that a class of the file combines with one."""
        found_class = None if _takes_tape(original.params) else _hook_class(ctx)
        if found_class is None:
            return
        cls, evidence = found_class
        ctx.report(
            original.name,
            f"`{cls}.minimize` is called with `tape=` by `Model.fit` from TF 2.4: add a `tape=None` "
            "parameter and pass it on (`super().minimize(..., tape=tape)`).\n"
            f"{evidence}; TF 2.4's `Model.train_step` calls `optimizer.minimize(loss, var_list, tape=tape)`, "
            "and without the parameter `fit` raises TypeError. Not rewritten: TF 2.3's `minimize` takes no "
            "`tape`, so passing it on fails there.",
            evidence=evidence,
        )

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "_clip_gradients"):
            return updated
        evidence = _optimizer_evidence(ctx, func.value)
        if evidence is not None:
            ctx.report(
                original,
                f"`{code_for(func)}` was removed in TF 2.4: clip with `tf.clip_by_norm` / "
                "`tf.clip_by_global_norm` (or the optimizer's `clipnorm` / `global_clipnorm`) instead.\n"
                f"{sentence(evidence)}; TF 2.4 clips in gradient transformers "
                "(`Optimizer(gradient_transformers=...)`).",
                evidence=evidence,
            )
        return updated


RULES = (OptimizerHooks(),)
