"""TF24223 `layers-one-by-one`: a functional model's op layers take more than one argument from
TF 2.4, so calling its `layers` one by one on a single value fails."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern

from .._text import assigned_value

_LAYERS = Pattern(r"\.layers\b", ".layers")
_MODEL_CALL = Pattern(r"\bModel[ \t]*\(", "Model")
_MODELS = frozenset({"tensorflow.keras.Model", "tensorflow.keras.models.Model"})


def _looped_layers(ctx: RuleContext, name: cst.Name) -> cst.BaseExpression | None:
    """The model whose `layers` the loop binding `name` walks (`for layer in model.layers[1:]:`)."""
    if not ctx.is_reference(name):
        return None
    binding = ctx.binding(name.value)
    loop = binding.node if binding is not None else None
    if not (isinstance(loop, cst.For) and isinstance(loop.target, cst.Name)):
        return None
    walked = loop.iter
    while isinstance(walked, cst.Subscript):
        walked = walked.value
    if isinstance(walked, cst.Attribute) and walked.attr.value == "layers":
        return walked.value
    return None


def _op_layer_of(ctx: RuleContext, model: cst.BaseExpression) -> str | None:
    """The expression that makes an op layer in the functional model `model` is built from: an
    operator or a TensorFlow function (not a Keras layer) in the outputs given to
    `tf.keras.Model(inputs, outputs)` (followed through one name bound in the same scope)."""
    built = assigned_value(ctx, model) if isinstance(model, cst.Name) else None
    if not (isinstance(built, cst.Call) and ctx.qualified_name(built.func) in _MODELS):
        return None
    outputs = [a.value for a in built.args[1:2] if a.keyword is None]
    outputs += [a.value for a in built.args if a.keyword is not None and a.keyword.value == "outputs"]
    for output in outputs:
        if isinstance(output, cst.Name):
            output = assigned_value(ctx, output) or output
        stack: list[cst.CSTNode] = [output]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.BinaryOperation):
                return abbreviated(node)
            if isinstance(node, cst.Call):
                called = ctx.qualified_name(node.func) or ""
                if called.startswith("tensorflow.") and not called.startswith("tensorflow.keras."):
                    return abbreviated(node)
            if not isinstance(node, cst.Lambda):
                stack.extend(node.children)
    return None


class LayersOneByOne(Rule):
    """A functional model's op layers take more than one argument from TF 2.4, so calling its
    `layers` one by one on a single value fails.

    A TensorFlow op or an operator applied to Keras symbolic values while a functional model is
    built becomes a layer of the model. TF 2.3's `TensorFlowOpLayer` took the one tensor; TF 2.4's
    `TFOpLambda` takes the op's arguments (`x * 2.0` is `tf.math.multiply(x, 2.0)`), so walking
    `model.layers` and calling each on the previous result (`for layer in model.layers[1:]: x =
    layer(x)`) raises `TypeError` at the op layer (executed on TF 2.3.0 and 2.4.0; the release notes
    list "walking a model layer by layer on the assumption that each layer has exactly one
    positional argument"). Call the model itself, or a sub-model (`tf.keras.Model(model.input,
    model.layers[i].output)`).

    Reported where the loop's model is built in the same scope by `tf.keras.Model(inputs,
    outputs)` whose outputs visibly hold an op layer (an operator, or a TensorFlow function that is
    not a Keras layer), and a layer of the loop is called with one argument. Not rewritten: what the
    walk is for is not visible.

    Reported: `model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs * 2.0))` then `for layer in model.layers[1:]: x = layer(x)`
    Write instead: `x = model(x)`

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24223"
    name = "layers-one-by-one"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (_LAYERS, _MODEL_CALL)
    requires = (*IMPORTS_TENSORFLOW, _LAYERS, _MODEL_CALL)
    follows = (_LAYERS,)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not isinstance(original.func, cst.Name) or len(original.args) != 1 or original.args[0].star:
            return updated
        model = _looped_layers(ctx, original.func)
        if model is None:
            return updated
        op_layer = _op_layer_of(ctx, model)
        if op_layer is not None:
            ctx.report(
                original,
                f"`{abbreviated(original)}` fails at an op layer from TF 2.4, which takes more than one "
                f"argument: call `{abbreviated(model)}` itself, or a sub-model.\n`{op_layer}` makes an op "
                f"layer of `{abbreviated(model)}` (a `TFOpLambda` from TF 2.4, taking the op's arguments, "
                "not the one tensor TF 2.3's `TensorFlowOpLayer` took).",
            )
        return updated


RULES = (LayersOneByOne(),)
