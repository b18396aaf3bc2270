"""Keras Functional API (TF2421x): code that relied on symbolic tensors being `tf.Tensor`s.

TF 2.4 builds functional models from `KerasTensor`s (the Functional API refactor in the TensorFlow
2.4 release notes; `class KerasTensor` in tensorflow/python/keras/engine/keras_tensor.py of the
tensorflow-cpu 2.4.0 wheel): they are not `tf.Tensor`s, their names carry no `:0`, they have no
gradients and cannot go through control flow or `get_concrete_function`. These rules report such code; only TF24210 has a (unsafe) rewrite.
"""

from __future__ import annotations

import itertools
import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated, code_for
from tf24migrate.rules.kinds import ReportUse
from tf24migrate.rules.needles import Pattern

from .._text import literal_value
from ._symbolic import (
    EVIDENCE_IN_FILE,
    EVIDENCE_TRIGGERS,
    INPUT_WORD,
    expression_evidence,
    symbolic_evidence,
    symbolic_names,
)


def _is_builtin_call(ctx, call: cst.Call, name: str) -> bool:
    return isinstance(call.func, cst.Name) and call.func.value == name and ctx.binding(name) is None


class KerasSymbolicIsinstance(Rule):
    """`isinstance(x, tf.Tensor)` is False for Keras symbolic inputs from TF 2.4.

    Functional models are built from `KerasTensor`s, which are not `tf.Tensor`s; the release notes
    recommend `tf.is_tensor(x)`, which is True for them on TF 2.4–2.15 and with tf_keras. The
    rewrite is unsafe: `tf.is_tensor` is also True for variables, sparse and ragged tensors, and
    under Keras 3 (the default `tf.keras` from TF 2.16) it is False for symbolic values, where
    `tf.keras.backend.is_keras_tensor(x)` is the check. A tuple of types is reported, not rewritten.

    Reported only with evidence in the file that `x` is a Keras symbolic value: `x` is bound to
    `tf.keras.Input(...)` (or computed from such a name, as `h = Dense(8)(inputs)`) in the same
    scope, or `x` is a model's `.input(s)` / `.output(s)`. Everywhere else (a `tf.function`
    argument, a shape dimension, a loss normaliser, a tensor of TF 1 graph code) `isinstance(x,
    tf.Tensor)` means what it meant in TF 2.3, and is left alone.

    Before: `inputs = tf.keras.Input((3,))` then `if isinstance(inputs, tf.Tensor): ...`
    After:  `inputs = tf.keras.Input((3,))` then `if tf.is_tensor(inputs): ...`

    Versions: `tf.is_tensor` exists since TF 2.0 (tensorflow_core/_api/v2/v2.py of the tensorflow 2.0.0
    wheel); the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24210"
    name = "keras-symbolic-isinstance"
    new_since = "2.0"
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.WARNING
    triggers = EVIDENCE_TRIGGERS
    requires = ("isinstance", *IMPORTS_TENSORFLOW)

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if not _is_builtin_call(ctx, original, "isinstance") or len(original.args) != 2:
            return updated
        if any(arg.star or arg.keyword for arg in original.args):
            return updated
        value, kind = original.args
        evidence = symbolic_evidence(ctx, value.value)
        if evidence is None:
            return updated
        why = (
            f"`isinstance({abbreviated(value.value)}, tf.Tensor)` is False for Keras symbolic values from TF 2.4 "
            f"({evidence}; they are `KerasTensor`s now): use `tf.is_tensor({abbreviated(value.value)})` on TF 2.4–2.15 and "
            "tf_keras (also True for variables, sparse and ragged tensors); under Keras 3 use "
            f"`tf.keras.backend.is_keras_tensor({abbreviated(value.value)})` for symbolic values."
        )
        if isinstance(kind.value, cst.Tuple):
            if any(ctx.qualified_name(e.value) == "tensorflow.Tensor" for e in kind.value.elements):
                ctx.report(original, f"{why} Take `tf.Tensor` out of the tuple and add that check with `or`.")
            return updated
        if ctx.qualified_name(kind.value) != "tensorflow.Tensor":
            return updated
        is_tensor = ctx.spell("tensorflow.is_tensor", like=kind.value)
        if is_tensor is None:
            ctx.report(original, why)
            return updated
        argument = updated.args[0]
        comma_has_comment = isinstance(argument.comma, cst.Comma) and "#" in code_for(argument.comma)
        if not comma_has_comment:
            argument = argument.with_changes(comma=cst.MaybeSentinel.DEFAULT)
        replacement = updated.with_changes(func=is_tensor, args=[argument])
        return ctx.report(original, why, replacement=replacement) or updated


def _is_name_attribute(ctx, node: cst.CSTNode) -> bool:
    """Whether `node` is the `.name` of a value the file shows to be a Keras symbolic tensor."""
    return (
        isinstance(node, cst.Attribute)
        and node.attr.value == "name"
        and symbolic_evidence(ctx, node.value) is not None
    )


_STRING_METHODS = {"endswith", "replace", "rstrip", "removesuffix", "split"}


def _ends_with_output_index(node: cst.CSTNode) -> bool:
    value = literal_value(node)
    if value is not None:
        return value.endswith(":0")
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return any(_ends_with_output_index(e.value) for e in node.elements)
    return False


class TensorNameSuffix(Rule):
    """Keras symbolic tensor names have no `:0` suffix from TF 2.4.

    `tf.keras.Input(name="image").name` was `"image:0"` (an op output name) and is `"image"` from
    TF 2.4, so code comparing names with a string ending in `:0`, appending `":0"` to a `.name`, or
    testing `.name.endswith(":0")` silently stops matching. Report only. To identify tensors, use
    `tensor.ref()` as a dictionary key rather than names.

    Reported only where the `.name` is visibly a Keras symbolic tensor's: its receiver is bound to
    `tf.keras.Input(...)` (or computed from one) in the same scope, or is a model's or layer's
    `.input(s)` / `.output(s)`. Graph tensors, GraphDef nodes, variables and ops keep their names
    (`op.outputs[0].name` still ends in `:0`), so graph-manipulation code is not reported.

    Reported: `if layer.output.name == "dense/BiasAdd:0": ...`
    Write instead: `if layer.output.name == "dense/BiasAdd": ...` (or compare `tensor.ref()`s)

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24211"
    name = "tensor-name-suffix"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = (':0"', ":0'", *EVIDENCE_TRIGGERS)  # a string literal ending in `:0`; the evidence
    requires = (".name", ":0", *MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE)
    follows = EVIDENCE_TRIGGERS  # a value bound to `Input(...)`; the literals are matched where they are

    def _report(self, ctx, node: cst.CSTNode) -> None:
        value = literal_value(node)
        instead = (
            f"`{value[:-2]!r}`" if value is not None and value.endswith(":0") else "the name without `:0`"
        )
        ctx.report(
            node,
            "Keras symbolic tensor names have no `:0` suffix from TF 2.4 (`Input(name='x').name` is "
            f"`'x'`): compare with {instead}, or identify tensors by `tensor.ref()` instead of by name.",
        )

    def leave_Comparison(self, ctx, original: cst.Comparison, updated: cst.Comparison):
        left = original.left
        for target in original.comparisons:
            right = target.comparator
            for name_side, text_side in ((left, right), (right, left)):
                if _is_name_attribute(ctx, name_side) and _ends_with_output_index(text_side):
                    self._report(ctx, text_side)
            left = right
        return updated

    def leave_BinaryOperation(self, ctx, original: cst.BinaryOperation, updated: cst.BinaryOperation):
        if isinstance(original.operator, cst.Add):
            value = literal_value(original.right)
            if _is_name_attribute(ctx, original.left) and value is not None and value.startswith(":0"):
                self._report(ctx, original)
        elif isinstance(original.operator, cst.Modulo):
            value = literal_value(original.left)
            if value is not None and "s:0" in value and _mentions_name_attribute(ctx, original.right):
                self._report(ctx, original)
        return updated

    def leave_FormattedString(self, ctx, original: cst.FormattedString, updated: cst.FormattedString):
        for part, following in itertools.pairwise(original.parts):
            if (
                isinstance(part, cst.FormattedStringExpression)
                and _is_name_attribute(ctx, part.expression)
                and isinstance(following, cst.FormattedStringText)
                and following.value.startswith(":0")
            ):
                self._report(ctx, original)
        return updated

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        func = original.func
        if not isinstance(func, cst.Attribute) or not original.args:
            return updated
        if func.attr.value == "format":
            template = literal_value(func.value) or ""
            if re.search(r"\}:0", template) and any(
                _mentions_name_attribute(ctx, a.value) for a in original.args
            ):
                self._report(ctx, original)
            return updated
        first = literal_value(original.args[0].value) or ""
        if ":0" in first and func.attr.value in _STRING_METHODS and _is_name_attribute(ctx, func.value):
            self._report(ctx, original)
        return updated


def _mentions_name_attribute(ctx, node: cst.CSTNode) -> bool:
    if _is_name_attribute(ctx, node):
        return True
    if isinstance(node, cst.Tuple):
        return any(_is_name_attribute(ctx, e.value) for e in node.elements)
    return False


KERAS_GET_GRAPH = ReportUse(
    code="TF24212",
    name="keras-get-graph",
    changed_in="2.4",
    severity=Severity.WARNING,
    symbols={
        qualified: "Functional models no longer need the Keras graph from TF 2.4 (they are built from "
        "symbolic `KerasTensor`s): remove `with K.get_graph().as_default():` and build the model "
        "directly; `get_graph` is not in the public TF 2 `tf.keras.backend`."
        for qualified in ("tensorflow.keras.backend.get_graph", "tensorflow.python.keras.backend.get_graph")
    },
    doc="""
    Entering `tf.keras.backend.get_graph()` before building a functional model is not needed from
    TF 2.4.

    Functional models are built from symbolic `KerasTensor`s, outside any graph; `get_graph` is an
    internal function that the public TF 2 `tf.keras.backend` does not export. Not rewritten:
    removing the `with` block re-indents its body, which is left to you.

    Reported: `from tensorflow.keras import backend as K, layers` then `with K.get_graph().as_default(): outputs = layers.Dense(10)(inputs)`
    Write instead: `outputs = layers.Dense(10)(inputs)`

    Versions: the Functional API change is in TF 2.4's release notes.
    """,
)

_GRADIENT_FUNCTIONS = {
    "tensorflow.gradients",
    "tensorflow.keras.backend.gradients",
    "tensorflow.python.keras.backend.gradients",
}


class SymbolicGradients(Rule):
    """Gradients with respect to a model's symbolic `.input(s)` / `.output(s)` do not exist from
    TF 2.4.

    `model.inputs` and `model.outputs` are `KerasTensor`s in TF 2.4: `tf.gradients`,
    `K.gradients` and `tape.gradient` cannot differentiate them. Call the model on real tensors
    inside a `tf.GradientTape` and differentiate those. Matched on `tf.gradients(...)`,
    `tf.keras.backend.gradients(...)` and any `.gradient(...)` call in a file that imports
    TensorFlow, when an argument is visibly symbolic: the `.input(s)` / `.output(s)` of a model or
    layer, or a name bound to `tf.keras.Input(...)` (or computed from one) in the same scope. A
    gradient of a loss computed by calling the model on data (`model(x)`) is not reported. Not
    rewritten: the data to feed is not visible.

    Reported: `from tensorflow.keras import backend as K` then `grads = K.gradients(model.output, model.input)`
    Write instead: `with tf.GradientTape() as tape: tape.watch(x); y = model(x)` then `grads = tape.gradient(y, x)`

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24213"
    name = "symbolic-gradients"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = EVIDENCE_TRIGGERS
    requires = (
        *MENTIONS_TENSORFLOW,
        Pattern(r"\bgradients?\b", "gradient"),  # `.gradient(`, `gradients(`
        EVIDENCE_IN_FILE,
    )

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        func = original.func
        is_tape = (
            isinstance(func, cst.Attribute)
            and func.attr.value == "gradient"
            and not ctx.resolves_to_module_other_than_tensorflow(func)
        )
        if not is_tape and ctx.qualified_name(func) not in _GRADIENT_FUNCTIONS:
            return updated
        for arg in original.args:
            evidence = expression_evidence(ctx, arg.value)
            if evidence is not None:
                ctx.report(
                    original,
                    f"`{abbreviated(func)}` differentiates a Keras symbolic tensor ({evidence}), which has no "
                    "gradient from TF 2.4: call the model on real data inside `with "
                    "tf.GradientTape() as tape:` (`tape.watch(x)`, `y = model(x)`) and take "
                    "`tape.gradient(y, x)`.",
                )
                return updated
        return updated


_CONTROL_FLOW = {"tensorflow.cond", "tensorflow.while_loop", "tensorflow.map_fn"}


class ControlFlowOnSymbolic(Rule):
    """`tf.cond`, `tf.while_loop` and `tf.map_fn` cannot take Keras symbolic inputs from TF 2.4.

    TF 2.3 turned such calls into op layers; TF 2.4 explicitly does not support control flow on
    `KerasTensor`s: it raises `TypeError` (a `KerasTensor` cannot become a graph tensor), hence the
    severity. Reported where one of these functions is applied to a name bound from
    `tf.keras.Input(...)` (or `keras.layers.Input(...)`) in the same scope, or computed from one
    (`h = Dense(8)(inputs)`); names with no such evidence are left alone. Not rewritten: the
    control flow belongs in a layer's `call`, which is a design change.

    Reported: `inputs = tf.keras.Input((3,))` then `y = tf.cond(flag, lambda: inputs, lambda: -inputs)`
    Write instead:

        class Choose(tf.keras.layers.Layer):
            def call(self, x):
                return tf.cond(flag, lambda: x, lambda: -x)


        inputs = tf.keras.Input((3,))
        y = Choose()(inputs)

    Versions: unsupported from TF 2.4 (the Functional API change in TF 2.4's release notes).
    """

    code = "TF24214"
    name = "control-flow-on-symbolic"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (INPUT_WORD,)
    requires = (
        *IMPORTS_TENSORFLOW,
        Pattern(r"\b(?:cond|while_loop|map_fn)\b", "cond", "while_loop", "map_fn"),
    )  # `_CONTROL_FLOW`

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        qualified = ctx.qualified_name(original.func)
        if qualified not in _CONTROL_FLOW:
            return updated
        names = [found for arg in original.args for found in symbolic_names(ctx, arg.value)]
        if names:
            function = qualified.replace("tensorflow.", "tf.", 1)
            name, evidence = names[0]
            ctx.report(
                original,
                f"`{function}` is applied to `{name.value}`, a Keras symbolic value ({evidence}): TF 2.4 "
                f"does not support control flow on symbolic tensors (TypeError). Move the `{function}` "
                f"into the `call` method of a custom `tf.keras.layers.Layer` and apply that layer to "
                f"`{name.value}`.",
            )
        return updated


class ConcreteFunctionOnSymbolic(Rule):
    """`get_concrete_function` cannot take Keras symbolic inputs from TF 2.4: pass `tf.TensorSpec`s.

    TF 2.4's `KerasTensor`s are not tensors, and not hashable either, so tracing a `tf.function`
    with one raises `TypeError` (hence the severity). Reported where `.get_concrete_function(...)`
    receives a name bound from `tf.keras.Input(...)` (or computed from one) in the same scope; the
    message spells the `tf.TensorSpec` to pass. Not rewritten: the spec's shape may need `None`
    dimensions the input does not show.

    Reported: `inputs = tf.keras.Input((3,))` then `concrete = serve.get_concrete_function(inputs)`
    Write instead: `concrete = serve.get_concrete_function(tf.TensorSpec(inputs.shape, inputs.dtype))`

    Versions: unsupported from TF 2.4 (the Functional API change in TF 2.4's release notes).
    """

    code = "TF24215"
    name = "concrete-function-on-symbolic"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (INPUT_WORD,)
    requires = (*MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE, "get_concrete_function")

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "get_concrete_function":
            return updated
        for arg in original.args:
            for name, _evidence in symbolic_names(ctx, arg.value):
                ctx.report(
                    name,
                    f"`get_concrete_function` receives `{name.value}`, a Keras symbolic value, which "
                    f"raises TypeError from TF 2.4: pass `tf.TensorSpec({name.value}.shape, "
                    f"{name.value}.dtype)` instead.",
                )
        return updated
