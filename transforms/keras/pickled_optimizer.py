"""TF24229 `pickled-optimizer`: `pickle` cannot save a Keras optimizer from TF 2.4."""

from __future__ import annotations

import ast

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import ast_classes
from tf24migrate.rules.needles import word
from tf24migrate.rules.text import parsed_or_none

from .._text import assigned_value
from ._symbolic import is_keras_object

_PICKLERS = frozenset({"pickle.dump", "pickle.dumps", "_pickle.dump", "_pickle.dumps"})
_OPTIMIZERS = "tensorflow.keras.optimizers."
# what that module holds besides optimizers and `get`: learning-rate schedules and configs
_NOT_OPTIMIZERS = ("tensorflow.keras.optimizers.schedules.", "tensorflow.keras.optimizers.serialize")
# how a class says what pickle saves of it
_STATE_METHODS = frozenset({"__getstate__", "__reduce__", "__reduce_ex__"})
# the bases a class may have besides classes of the file: neither says what pickle saves
_PLAIN_BASES = frozenset({"object", "ABC", "abc.ABC"})


def _is_optimizer_construction(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is a `tf.keras.optimizers.*(...)` call that makes an optimizer."""
    if not isinstance(node, cst.Call):
        return False
    qualified = ctx.qualified_name(node.func) or ""
    return qualified.startswith(_OPTIMIZERS) and not qualified.startswith(_NOT_OPTIMIZERS)


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
    if isinstance(node, cst.Call) and _is_optimizer_construction(ctx, node):
        return f"`{abbreviated(node.func)}(...)`"
    if isinstance(node, cst.Name) and depth:
        value = assigned_value(ctx, node)
        found = _optimizer_evidence(ctx, value, depth - 1) if value is not None else None
        return f"`{node.value}`, bound to {found}" if found else None
    return None


def _says_how_it_pickles(cls: ast.ClassDef) -> bool:
    """Whether the class defines `__getstate__`, `__reduce__` or `__reduce_ex__` (a method or a
    name bound in its body)."""
    for statement in cls.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [statement.name]
        elif isinstance(statement, ast.Assign):
            names = [t.id for t in statement.targets if isinstance(t, ast.Name)]
        else:
            continue
        if _STATE_METHODS.intersection(names):
            return True
    return False


def _lineage(classes: dict[str, ast.ClassDef], name: str) -> list[ast.ClassDef] | None:
    """The class of the file named `name` and its bases, each a class of the file; None where a
    base is another module's (which may say what pickle saves) or where one of them says itself
    how it pickles."""
    lineage: list[ast.ClassDef] = []
    todo = [name]
    while todo:
        cls = classes.get(todo.pop())
        if cls is None or _says_how_it_pickles(cls):
            return None
        if cls in lineage:
            continue
        lineage.append(cls)
        for base in cls.bases:
            if ast.unparse(base) in _PLAIN_BASES:
                continue
            if not isinstance(base, ast.Name):
                return None
            todo.append(base.id)
    return lineage


def _held_evidence(ctx: RuleContext, value: ast.expr) -> str | None:
    """What shows that a value assigned to an attribute is a Keras optimizer, as a noun phrase: a
    `tf.keras.optimizers.*(...)` construction or a Keras model's `.optimizer`."""
    is_model_optimizer = isinstance(value, ast.Attribute) and value.attr == "optimizer"
    if not isinstance(value, ast.Call) and not is_model_optimizer:
        return None
    node = cst.parse_expression(ast.unparse(value))
    if _is_optimizer_construction(ctx, node) and isinstance(node, cst.Call):
        return f"`{abbreviated(node.func)}(...)`"
    if isinstance(node, cst.Attribute) and is_keras_object(ctx, node.value):
        return f"`{abbreviated(node)}`, a Keras model's optimizer"
    return None


def _optimizer_attribute(ctx: RuleContext, lineage: list[ast.ClassDef]) -> tuple[str, str, str, int] | None:
    """The first `self.<attribute> = <Keras optimizer>` in a method of these classes: the class,
    the attribute, what shows the value is an optimizer, and the assignment's line."""
    for cls in lineage:
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
                continue
            me = method.args.args[0].arg
            for node in ast.walk(method):
                if isinstance(node, ast.Assign):
                    targets, value = node.targets, node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    targets, value = [node.target], node.value
                else:
                    continue
                for target in targets:
                    if not (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == me
                    ):
                        continue
                    evidence = _held_evidence(ctx, value)
                    if evidence is not None:
                        return cls.name, target.attr, evidence, node.lineno
    return None


def _method_of(ctx: RuleContext, name: cst.Name) -> str | None:
    """The class whose method the node being left is in, where `name` is that method's `self`."""
    ancestors = ctx.ancestors
    for at, ancestor in enumerate(ancestors):
        if not isinstance(ancestor, cst.FunctionDef):
            continue
        params = ancestor.params.params
        if not params or params[0].name.value != name.value or ancestor.decorators:
            return None
        cls = ancestors[at + 2] if at + 2 < len(ancestors) else None
        return cls.name.value if isinstance(cls, cst.ClassDef) else None
    return None


def _scope_statements(scope: ast.AST) -> list[ast.stmt]:
    """The statements of a function or module, not those of the functions and classes it defines."""
    found: list[ast.stmt] = []
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.stmt):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _instance_of(tree: ast.Module, classes: dict[str, ast.ClassDef], name: str, line: int) -> str | None:
    """The class of the file that `name` is last bound to an instance of (`name = Cls(...)`)
    before `line`, in the function (or module) holding that line."""
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.lineno <= line <= (node.end_lineno or node.lineno)
            and node.lineno > getattr(scope, "lineno", 0)
        ):
            scope = node
    bound = [
        s
        for s in _scope_statements(scope)
        if isinstance(s, ast.Assign)
        and s.lineno < line
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    if not bound:
        return None
    value = max(bound, key=lambda s: s.lineno).value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes:
        return value.func.id
    return None


def _held_optimizer(
    ctx: RuleContext, pickled: cst.Call, value: cst.Name
) -> tuple[str, str, str, str, str] | None:
    """Where `value` is an instance of a class of the file that keeps a Keras optimizer on itself
    and does not say what pickle saves: the class, the attribute, what the optimizer is, its line,
    and how `value` is that class's instance."""
    tree = parsed_or_none(ctx.source)
    if tree is None:
        return None
    classes = ast_classes(tree)
    cls = _method_of(ctx, value)
    if cls is not None:
        how = f"`{value.value}` is the `{cls}` whose method this is"
    else:
        cls = _instance_of(tree, classes, value.value, ctx.source_line(pickled))
        how = f"`{value.value}` is bound to `{cls}(...)`"
    lineage = _lineage(classes, cls) if cls is not None else None
    held = _optimizer_attribute(ctx, lineage) if lineage else None
    if held is None:
        return None
    return held[0], held[1], held[2], str(held[3]), how


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
    of these in the same scope. Also where `x` is an object that keeps one on itself: `self` in a
    method of a class of the file, or a name bound to `Cls(...)` of a class of the file, where
    that class or a base of the file sets `self.<attribute>` to a `tf.keras.optimizers.*(...)`
    construction or a model's `.optimizer` (NatLabRockies/phygnn#17), and neither it nor a base
    says what pickle saves (`__getstate__`, `__reduce__`, `__reduce_ex__`); not where a base is
    another module's class, which may say it. `copy.deepcopy` copies such an optimizer on TF 2.4
    (executed), and a `tf.compat.v1.train` optimizer pickles. Not rewritten: what to save (the
    config, the weights) and how to load it is the author's choice.

    Reported:

        import pickle

        pickle.dump(model.optimizer, f)

    Write instead:

        import pickle

        pickle.dump(model.optimizer.get_config(), f)

    And for an object holding one, leave it out of what pickle saves:

        class Trainer:
            def __getstate__(self):
                state = dict(self.__dict__)
                state["_optimizer"] = self._optimizer.get_config()
                return state

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
            self._report_held(ctx, original, value)
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

    def _report_held(self, ctx: RuleContext, original: cst.Call, value: cst.BaseExpression) -> None:
        held = _held_optimizer(ctx, original, value) if isinstance(value, cst.Name) else None
        if held is None or not isinstance(value, cst.Name):
            return
        cls, attribute, evidence, line, how = held
        ctx.report(
            original,
            f"`{abbreviated(original.func)}` of `{value.value}` raises from TF 2.4: "
            f"`self.{attribute}` holds a Keras optimizer, which `pickle` cannot save from TF 2.4: "
            f"leave it out in `{cls}.__getstate__` and keep its `get_config()` and "
            "`get_weights()` instead.\n"
            f"{how}; `{cls}` sets `self.{attribute}` on line {line} to {evidence}. TF 2.4's "
            "optimizers hold local functions (their gradient clipping), which `pickle` cannot "
            "save; rebuild one with `from_config(config)` and `set_weights(weights)`.",
            evidence=f"`self.{attribute}`, {evidence}",
        )


RULES = (PickledOptimizer(),)
