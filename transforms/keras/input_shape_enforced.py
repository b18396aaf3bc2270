"""TF24224 `input-shape-enforced`: a functional model checks its inputs against the shape of its
`Input` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern

from .._text import assigned_value
from ._symbolic import INPUTS

_MODELS = frozenset({"tensorflow.keras.Model", "tensorflow.keras.models.Model"})
_RUNS = frozenset({"predict", "predict_on_batch", "evaluate", "fit", "train_on_batch", "test_on_batch"})
# Functions making data of a literal shape, given as their first argument.
_MAKERS = frozenset(
    {
        "numpy.ones",
        "numpy.zeros",
        "numpy.empty",
        "numpy.full",
        "tensorflow.ones",
        "tensorflow.zeros",
        "tensorflow.fill",
        "tensorflow.random.normal",
        "tensorflow.random.uniform",
    }
)
_MAKER_WORDS = ("ones", "zeros", "empty", "full", "fill", "normal", "uniform")
_MADE = Pattern(rf"\b(?:{'|'.join(_MAKER_WORDS)})[ \t]*\(", *_MAKER_WORDS)
Shape = tuple[int | None, ...]


def _literal_shape(node: cst.BaseExpression) -> Shape | None:
    """`(3, None)` for `(3, None)`, `[3]` or `3`; None when any dimension is not written out."""
    elements = [e.value for e in node.elements] if isinstance(node, (cst.Tuple, cst.List)) else [node]
    shape: list[int | None] = []
    for element in elements:
        if isinstance(element, cst.Integer):
            shape.append(int(element.evaluated_value))
        elif isinstance(element, cst.Name) and element.value == "None":
            shape.append(None)
        else:
            return None
    return tuple(shape)


def _argument(call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    """The first positional argument of `call`, or its argument `keyword`."""
    for arg in call.args:
        if arg.star:
            return None
        if (arg.keyword is None and arg is call.args[0]) or (
            arg.keyword is not None and arg.keyword.value == keyword
        ):
            return arg.value
    return None


def _bound_call(ctx: RuleContext, node: cst.BaseExpression, names: frozenset[str]) -> cst.Call | None:
    """`node`, or what the name `node` is bound to in the same scope, when it is a call of `names`."""
    if isinstance(node, cst.Name):
        node = assigned_value(ctx, node) or node
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) in names:
        return node
    return None


def _input_shape(ctx: RuleContext, model: cst.BaseExpression) -> tuple[str, Shape] | None:
    """The name and literal shape of the one `Input` of `model`, a functional model built in the
    same scope by `tf.keras.Model(inputs, ...)` with `inputs = tf.keras.Input(shape)`."""
    built = _bound_call(ctx, model, _MODELS)
    given = _argument(built, "inputs") if built is not None else None
    if not isinstance(given, cst.Name):
        return None
    made = _bound_call(ctx, given, INPUTS)
    shape = _argument(made, "shape") if made is not None else None
    found = _literal_shape(shape) if shape is not None else None
    return (given.value, found) if found is not None else None


def _data_shape(ctx: RuleContext, data: cst.BaseExpression) -> Shape | None:
    """The literal shape of `data`, made by `np.ones((2, 5))`, `tf.zeros([1, 3])` and the like
    (or a name bound to one in the same scope), without its first (batch) dimension."""
    made = _bound_call(ctx, data, _MAKERS)
    shape = _argument(made, "shape") if made is not None else None
    found = _literal_shape(shape) if shape is not None else None
    return found[1:] if found else None


def _mismatch(expected: Shape, given: Shape) -> bool:
    return len(expected) != len(given) or any(
        e is not None and e != g for e, g in zip(expected, given, strict=True)
    )


class InputShapeEnforced(Rule):
    """A functional model checks its inputs against the shape of its `Input` from TF 2.4.

    In TF 2.3 a functional model called on data of another shape than its `Input` ran, with a
    warning ("Model was constructed with shape ... but it was called on an input with incompatible
    shape"); from TF 2.4 it raises `ValueError: Input 0 is incompatible with layer model` (executed on
    TF 2.3.0 and 2.4.0; the release notes: input shapes are enforced; tensorflow/tensorflow#45914).
    Give the `Input` the data's shape, `None` for the dimensions that vary, or set
    `model.input_spec = None`.

    Reported where both shapes are written out in the file: the model is built in the same scope by
    `tf.keras.Model(inputs, ...)` with `inputs = tf.keras.Input(shape)`, and it is called (or its
    `predict`, `evaluate`, `fit`, ...) on data made by `np.ones(shape)`, `tf.zeros(shape)` and the
    like (or a name bound to such), whose shape past the batch dimension differs from the `Input`'s
    where the `Input` fixes a dimension, or in rank. Not rewritten: which of the two is right is the
    author's to say.

    Reported: `inputs = tf.keras.Input((3,))` then `model = tf.keras.Model(inputs, inputs * 2.0)` then `outputs = model(tf.ones((2, 5)))`
    Write instead: `inputs = tf.keras.Input((None,))` then `model = tf.keras.Model(inputs, inputs * 2.0)` then `outputs = model(tf.ones((2, 5)))`

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24224"
    name = "input-shape-enforced"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # the lines binding the data, the model and its `Input`, which the call's evidence reads; a
    # model's name is followed to its calls (`model(x)`, `model.predict(x)`)
    triggers = (_MADE, "Model", "Input")
    requires = (*IMPORTS_TENSORFLOW, "Input", "Model")
    follows = ("Model",)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value in _RUNS:
            model = func.value
        elif isinstance(func, cst.Name):
            model = func
        else:
            return updated
        data = _argument(original, "x")
        if data is None:
            return updated
        found = _input_shape(ctx, model)
        given = _data_shape(ctx, data)
        if found is None or given is None:
            return updated
        name, expected = found
        if _mismatch(expected, given):
            ctx.report(
                original,
                f"`{abbreviated(original)}` raises ValueError from TF 2.4: the data's shape {given} past "
                f"the batch differs from `{name}`'s {expected}; use `None` for the dimensions that vary.\n"
                "A functional model checks its inputs against its `Input`'s shape from TF 2.4 (TF 2.3 "
                "only warned); or set `model.input_spec = None`.",
            )
        return updated


RULES = (InputShapeEnforced(),)
