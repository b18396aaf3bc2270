"""TF24314 `forwarded-learning-rate`: TF 2.4's `LossScaleOptimizer` forwards `lr` and
`learning_rate` only where the optimizer inside holds them as hyperparameters."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import ast_classes, ast_import_aliases, ast_qualified_name
from tf24migrate.rules.needles import any_of, attribute, word
from tf24migrate.rules.text import of_the_last_text, parsed_or_none

from .._text import assigned_value

_LEARNING_RATE = frozenset({"lr", "learning_rate"})
# the bases that hold no learning rate of their own (`Adam` and the others set the hyperparameter)
_BARE_OPTIMIZERS = frozenset(
    {
        "tensorflow.keras.optimizers.Optimizer",
        "tensorflow.optimizers.Optimizer",
        "tensorflow.python.keras.optimizer_v2.optimizer_v2.OptimizerV2",
    }
)
_CALLBACKS = frozenset(
    {"tensorflow.keras.callbacks.ReduceLROnPlateau", "tensorflow.keras.callbacks.LearningRateScheduler"}
)
_MIXED_PRECISION = "tensorflow.keras.mixed_precision."
_SET_POLICY = frozenset({"set_policy", "set_global_policy"})
_CALLBACK_WORDS = word("ReduceLROnPlateau", "LearningRateScheduler")


def _learning_rate_property(cls: ast.ClassDef) -> str | None:
    """`lr` or `learning_rate` where the class defines it as a `@property`."""
    for statement in cls.body:
        if (
            isinstance(statement, ast.FunctionDef)
            and statement.name in _LEARNING_RATE
            and any(isinstance(d, ast.Name) and d.id == "property" for d in statement.decorator_list)
        ):
            return statement.name
    return None


def _sets_learning_rate(cls: ast.ClassDef) -> bool:
    """Whether the class registers its own learning rate: `self._set_hyper("learning_rate", ...)`."""
    for node in ast.walk(cls):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "_set_hyper"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in _LEARNING_RATE
        ):
            return True
    return False


@dataclass(frozen=True)
class _File:
    """What the rule reads of a file's whole source with `ast`, once per text."""

    tree: ast.Module
    aliases: dict[str, str]
    found: dict[str, str]  # class name -> `Class.lr`: see `_read`


@of_the_last_text
def _read(source: str) -> _File | None:
    """The file's `ast` and imports, and the Keras optimizer classes of the file whose learning
    rate is a Python property and no hyperparameter: class name -> `Class.lr` (the property, in it
    or in a base of the file). Each derives, itself or through classes of the file, from the bare
    `Optimizer`."""
    tree = parsed_or_none(source)
    if tree is None:
        return None
    aliases = ast_import_aliases(tree)
    classes = ast_classes(tree)
    found: dict[str, str] = {}
    for name in classes:
        chain: list[ast.ClassDef] = []
        bare = False
        todo = [name]
        while todo:
            cls = classes.get(todo.pop())
            if cls is None or cls in chain:
                continue
            chain.append(cls)
            for base in cls.bases:
                if isinstance(base, ast.Name) and base.id in classes:
                    todo.append(base.id)
                elif ast_qualified_name(base, aliases) in _BARE_OPTIMIZERS:
                    bare = True
        if not bare or any(_sets_learning_rate(cls) for cls in chain):
            continue
        owner = next((cls for cls in chain if _learning_rate_property(cls)), None)
        if owner is not None:
            found[name] = f"{owner.name}.{_learning_rate_property(owner)}"
    return _File(tree, aliases, found)


def _last_assigned(tree: ast.Module, name: str, line: int) -> ast.expr | None:
    """The value of the file's last `name = value` before `line`."""
    bound = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and node.lineno < line
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]
    return max(bound, key=lambda node: node.lineno).value if bound else None


def _optimizer_class(file: _File, node: ast.expr, line: int, depth: int = 3) -> tuple[str, bool] | None:
    """The class of `found` that `node` constructs (`Cls(...)`, a name bound to it, either inside
    `LossScaleOptimizer(...)`), and whether a `LossScaleOptimizer` visibly wraps it."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in file.found:
            return node.func.id, False
        qualified = ast_qualified_name(node.func, file.aliases)
        if qualified.startswith(_MIXED_PRECISION) and qualified.endswith(".LossScaleOptimizer"):
            inner = node.args[0] if node.args else None
            for given in node.keywords:
                if given.arg in ("optimizer", "inner_optimizer", "opt"):
                    inner = given.value
            wrapped = _optimizer_class(file, inner, line, depth) if inner is not None else None
            return (wrapped[0], True) if wrapped is not None else None
    if isinstance(node, ast.Name) and depth:
        value = _last_assigned(file.tree, node.id, line)
        if value is not None:
            return _optimizer_class(file, value, getattr(value, "lineno", line), depth - 1)
    return None


def _compiled_with(file: _File, model: str, line: int) -> tuple[str, bool] | None:
    """The class of `found` the last `model.compile(...)` before `line` is given as its optimizer."""
    compiles = [
        node
        for node in ast.walk(file.tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "compile"
        and node.lineno <= line
        and ast.unparse(node.func.value) == model
    ]
    if not compiles:
        return None
    compiled = max(compiles, key=lambda node: node.lineno)
    optimizer = compiled.args[0] if compiled.args else None
    for given in compiled.keywords:
        if given.arg == "optimizer":
            optimizer = given.value
    return _optimizer_class(file, optimizer, compiled.lineno) if optimizer is not None else None


def _mixed_float16(file: _File) -> bool:
    """Whether the file sets the `mixed_float16` policy (`set_policy` or `set_global_policy`,
    experimental or not), under which `compile` wraps the optimizer in a `LossScaleOptimizer`."""
    for node in ast.walk(file.tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Attribute, ast.Name))
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) in _SET_POLICY
            and ast_qualified_name(node.func, file.aliases).startswith(_MIXED_PRECISION)
        ):
            continue
        given = [*node.args, *(k.value for k in node.keywords)]
        if any(
            isinstance(n, ast.Constant) and n.value == "mixed_float16" for g in given for n in ast.walk(g)
        ):
            return True
    return False


def _lr_callback(ctx: RuleContext, node: cst.BaseExpression, depth: int = 2) -> str | None:
    """The learning-rate callback (`ReduceLROnPlateau`, `LearningRateScheduler`) among the
    callbacks `node` gives, constructed there or bound to a name in the same scope."""
    if isinstance(node, (cst.List, cst.Tuple)):
        for element in node.elements:
            found = _lr_callback(ctx, element.value, depth)
            if found is not None:
                return found
        return None
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) in _CALLBACKS:
        return (ctx.qualified_name(node.func) or "").rsplit(".", 1)[1]
    if isinstance(node, cst.Name) and depth:
        value = assigned_value(ctx, node)
        return _lr_callback(ctx, value, depth - 1) if value is not None else None
    return None


class ForwardedLearningRate(Rule):
    """TF 2.4's `LossScaleOptimizer` forwards `lr` only as the inner optimizer's hyperparameter.

    Under the `mixed_float16` policy, `compile` wraps the optimizer in a `LossScaleOptimizer`.
    TF 2.3's defined `lr` and `learning_rate` as properties that read the optimizer inside, so an
    optimizer subclass (a wrapper such as TensorFlow Addons' stochastic weight averaging) that
    defines its learning rate as a Python `property` was read through it. TF 2.4's forwards an
    attribute it lacks only when the inner optimizer holds it as a hyperparameter (its
    `__getattribute__` looks in `_hyper`), so `model.optimizer.lr` raises `AttributeError`, and
    with it `ReduceLROnPlateau` at the end of an epoch and `LearningRateScheduler` at its start
    (which raises `ValueError`: the optimizer "must have a "lr" attribute") (executed on TF 2.3.0
    and 2.4.0; tensorflow/addons#2332).

    Reported where the file shows all of it: a class of the file derived (itself or through
    classes of the file) from the bare `tf.keras.optimizers.Optimizer`, with `lr` or
    `learning_rate` a `@property` and no `self._set_hyper("learning_rate", ...)`; a model
    compiled with an instance of it (`compile(optimizer=Cls(...))`, or a name bound to one); and
    a `LossScaleOptimizer`: the file sets the `mixed_float16` policy (`set_policy`,
    `set_global_policy`, experimental or not), or wraps the instance itself. The finding is at
    `fit(...)` whose `callbacks=` hold a `ReduceLROnPlateau` or `LearningRateScheduler` (where the
    program fails), and at a read of the model's `.optimizer.lr` or `.optimizer.learning_rate`
    (`K.get_value(model.optimizer.lr)`), or of `.lr` of a name bound to the explicit
    `LossScaleOptimizer`. Not under a `float32` or `mixed_bfloat16` policy (no loss scaling), nor
    for a subclass of `Adam` and the others (their learning rate is a hyperparameter). Not
    rewritten: the class must register the rate it means.

    Reported:

        import tensorflow as tf

        class Wrapper(tf.keras.optimizers.Optimizer):
            @property
            def lr(self):
                return self._optimizer._get_hyper("learning_rate")

        tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
        model.compile(optimizer=Wrapper(tf.keras.optimizers.SGD()), loss="mse")
        model.fit(x, y, callbacks=[tf.keras.callbacks.ReduceLROnPlateau()])

    Write instead:

        import tensorflow as tf

        class Wrapper(tf.keras.optimizers.Optimizer):
            def __init__(self, optimizer, name="Wrapper"):
                super().__init__(name)
                self._optimizer = optimizer
                self._set_hyper("learning_rate", optimizer.learning_rate)

        tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
        model.compile(optimizer=Wrapper(tf.keras.optimizers.SGD()), loss="mse")
        model.fit(x, y, callbacks=[tf.keras.callbacks.ReduceLROnPlateau()])

    A read of your own can go to the inner optimizer instead:
    `model.optimizer.inner_optimizer.lr` (TF 2.4).

    Versions: TF 2.3.0's `LossScaleOptimizer` defines `lr` and `learning_rate` as properties
    (tensorflow/python/keras/mixed_precision/experimental/loss_scale_optimizer.py); TF 2.4.0's
    has none and forwards from the inner optimizer's `_hyper` in `__getattribute__`
    (tensorflow/python/keras/mixed_precision/loss_scale_optimizer.py of the tensorflow-cpu 2.4.0
    wheel).
    """

    code = "TF24314"
    name = "forwarded-learning-rate"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (_CALLBACK_WORDS, attribute("lr", "learning_rate"))
    requires = (
        *IMPORTS_TENSORFLOW,
        word("property"),
        any_of(word("mixed_float16"), word("LossScaleOptimizer")),
    )
    # a name bound to a callback is followed to the `fit` given it
    follows = (_CALLBACK_WORDS,)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("fit", "fit_generator"):
            return updated
        given = next((a.value for a in original.args if a.keyword and a.keyword.value == "callbacks"), None)
        callback = _lr_callback(ctx, given) if given is not None else None
        if callback is None:
            return updated
        found = self._wrapped_property(ctx, original, func.value, model=True)
        if found is not None:
            owner, why = found
            self._report(
                ctx,
                original,
                f"`{callback}` reads `{abbreviated(func.value)}.optimizer.lr`, which raises from TF 2.4",
                owner,
                why,
            )
        return updated

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if original.attr.value not in _LEARNING_RATE:
            return updated
        receiver = original.value
        if isinstance(receiver, cst.Attribute) and receiver.attr.value == "optimizer":
            found = self._wrapped_property(ctx, original, receiver.value, model=True)
        elif isinstance(receiver, cst.Name):
            found = self._wrapped_property(ctx, original, receiver, model=False)
        else:
            return updated
        if found is not None:
            owner, why = found
            self._report(ctx, original, f"`{abbreviated(original)}` raises from TF 2.4", owner, why)
        return updated

    def _wrapped_property(
        self, ctx: RuleContext, site: cst.CSTNode, receiver: cst.BaseExpression, *, model: bool
    ) -> tuple[str, str] | None:
        """The property (`Class.lr`) of the optimizer class of the file that a `LossScaleOptimizer`
        wraps at `receiver` (a model compiled with it, or the wrapper itself), and why one wraps it."""
        file = _read(ctx.source)
        if file is None or not file.found:
            return None
        line = ctx.source_line(site)
        shown = abbreviated(receiver)
        if model:
            optimizer = _compiled_with(file, shown, line)
        elif isinstance(receiver, cst.Name):
            value = _last_assigned(file.tree, receiver.value, line)
            optimizer = _optimizer_class(file, value, line) if value is not None else None
            optimizer = optimizer if optimizer is not None and optimizer[1] else None
        else:
            optimizer = None
        if optimizer is None:
            return None
        cls, explicit = optimizer
        if explicit:
            return file.found[cls], f"a `LossScaleOptimizer` wraps the `{cls}`"
        if model and _mixed_float16(file):
            why = f"the `mixed_float16` policy makes `compile` wrap the `{cls}` in a `LossScaleOptimizer`"
            return file.found[cls], why
        return None

    def _report(self, ctx: RuleContext, site: cst.CSTNode, what: str, owner: str, why: str) -> None:
        cls = owner.split(".", 1)[0]
        ctx.report(
            site,
            f"{what}: `{owner}` is a Python property, which TF 2.4's `LossScaleOptimizer` no longer "
            f'forwards; register the rate in `{cls}.__init__` with `self._set_hyper("learning_rate", '
            "...)` instead.\n"
            f"Here {why}. TF 2.3's defined `lr` and `learning_rate` to read the optimizer inside; "
            "TF 2.4's forwards only that optimizer's hyperparameters (`_hyper`); a read of your own "
            "can go to `optimizer.inner_optimizer.lr` (TF 2.4).",
            evidence=f"`{owner}`, a property; {why}",
        )


RULES = (ForwardedLearningRate(),)
