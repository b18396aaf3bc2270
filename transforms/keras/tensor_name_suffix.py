"""TF24211 `tensor-name-suffix`: the names of a Keras model's inputs have no `:0` suffix from TF 2.4."""

from __future__ import annotations

import itertools
import re

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext

from .._text import assigned_value, links, literal_value
from ._symbolic import (
    EVIDENCE_IN_FILE,
    EVIDENCE_TRIGGERS,
    EVIDENCE_WORDS,
    input_collection_evidence,
    input_evidence,
)


def _is_name_attribute(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` is the `.name` of a value the file shows to be a Keras model's input."""
    return (
        isinstance(node, cst.Attribute)
        and node.attr.value == "name"
        and input_evidence(ctx, node.value) is not None
    )


def _keyed_by_names(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` is a name bound in this scope to a dictionary whose keys are Keras symbolic
    inputs' names: `{t.name: t for t in model.inputs}` (over any collection
    `input_collection_evidence` accepts), or `{inputs.name: ...}` with every key such a `.name`."""
    if not isinstance(node, cst.Name):
        return False
    value = assigned_value(ctx, node)
    if isinstance(value, cst.DictComp):
        loop, key = value.for_in, value.key
        return (
            loop.inner_for_in is None
            and isinstance(loop.target, cst.Name)
            and isinstance(key, cst.Attribute)
            and key.attr.value == "name"
            and isinstance(key.value, cst.Name)
            and key.value.value == loop.target.value
            and input_collection_evidence(ctx, loop.iter) is not None
        )
    if isinstance(value, cst.Dict) and value.elements:
        return all(isinstance(e, cst.DictElement) and _is_name_attribute(ctx, e.key) for e in value.elements)
    return False


_STRING_METHODS = {"endswith", "replace", "rstrip", "removesuffix", "split"}


def _ends_with_output_index(node: cst.CSTNode) -> bool:
    value = literal_value(node)
    if value is not None:
        return value.endswith(":0")
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return any(_ends_with_output_index(e.value) for e in node.elements)
    return False


class TensorNameSuffix(Rule):
    """The names of a Keras model's inputs have no `:0` suffix from TF 2.4.

    `tf.keras.Input(name="image").name` was `"image:0"` (an op output name) and is `"image"` from
    TF 2.4, as are the names of a model's `.input(s)`, so code comparing them with a string ending
    in `:0`, appending `":0"` to such a `.name`, or testing `.name.endswith(":0")` silently stops
    matching, and a dictionary keyed by them (`{t.name: t for t in model.inputs}`) looked up with
    `"age:0"` raises `KeyError`. Report only. To identify tensors, use `tensor.ref()` as a
    dictionary key rather than names.

    Reported only where the `.name` is visibly an input's: its receiver is bound to
    `tf.keras.Input(...)` in the same scope, iterates over a model's `.inputs`, or is a model's
    `.input` / `.inputs[i]`; a dictionary's keys are such names when it is built in the same scope
    from a model's `.inputs`, a list of inputs or the `.values()` of a dictionary of `Input(...)`
    calls. The outputs of layers keep their op names (`dense/BiasAdd:0` on TF 2.3.0 and 2.4.0
    alike; the names of op layers change, see TF24217), and so do graph tensors, GraphDef nodes,
    variables and ops (`op.outputs[0].name` still ends in `:0`): they are not reported.

    Reported: `if model.inputs[0].name == "image:0": ...`
    Write instead: `if model.inputs[0].name == "image": ...` (or compare `tensor.ref()`s)

    Reported: `by_name = {t.name: t for t in model.inputs}` then `age = by_name["age:0"]`
    Write instead: `age = by_name["age"]` (the `name=` given to `Input`)

    Versions: the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24211"
    name = "tensor-name-suffix"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    triggers = (':0"', ":0'")  # a string literal ending in `:0`
    requires = (".name", *MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def _report(self, ctx: RuleContext, node: cst.CSTNode, verb: str = "compare with") -> None:
        value = literal_value(node)
        instead = (
            f"`{value[:-2]!r}`" if value is not None and value.endswith(":0") else "the name without `:0`"
        )
        ctx.report(
            node,
            f"Keras inputs' names have no `:0` suffix from TF 2.4: {verb} {instead}.\n"
            "`Input(name='x').name` is `'x'`; or identify tensors by `tensor.ref()` instead of by name.",
        )

    def leave_Subscript(
        self, ctx: RuleContext, original: cst.Subscript, updated: cst.Subscript
    ) -> cst.BaseExpression:
        """`by_name["age:0"]` where `by_name` is keyed by symbolic tensors' names: a KeyError."""
        if len(original.slice) == 1 and isinstance(original.slice[0].slice, cst.Index):
            key = original.slice[0].slice.value
            if (literal_value(key) or "").endswith(":0") and _keyed_by_names(ctx, original.value):
                self._report(ctx, key, "look up")
        return updated

    def leave_Comparison(
        self, ctx: RuleContext, original: cst.Comparison, updated: cst.Comparison
    ) -> cst.BaseExpression:
        for operator, left, right in links(original):
            for name_side, text_side in ((left, right), (right, left)):
                if _is_name_attribute(ctx, name_side) and _ends_with_output_index(text_side):
                    self._report(ctx, text_side)
            if (
                isinstance(operator, (cst.In, cst.NotIn))
                and (literal_value(left) or "").endswith(":0")
                and _keyed_by_names(ctx, right)
            ):
                self._report(ctx, left, "look up")
        return updated

    def leave_BinaryOperation(
        self, ctx: RuleContext, original: cst.BinaryOperation, updated: cst.BinaryOperation
    ) -> cst.BaseExpression:
        if isinstance(original.operator, cst.Add):
            value = literal_value(original.right)
            if _is_name_attribute(ctx, original.left) and value is not None and value.startswith(":0"):
                self._report(ctx, original)
        elif isinstance(original.operator, cst.Modulo):
            value = literal_value(original.left)
            if value is not None and "s:0" in value and _mentions_name_attribute(ctx, original.right):
                self._report(ctx, original)
        return updated

    def leave_FormattedString(
        self, ctx: RuleContext, original: cst.FormattedString, updated: cst.FormattedString
    ) -> cst.BaseExpression:
        for part, following in itertools.pairwise(original.parts):
            if (
                isinstance(part, cst.FormattedStringExpression)
                and _is_name_attribute(ctx, part.expression)
                and isinstance(following, cst.FormattedStringText)
                and following.value.startswith(":0")
            ):
                self._report(ctx, original)
        return updated

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
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
        if func.attr.value in ("get", "pop") and first.endswith(":0") and _keyed_by_names(ctx, func.value):
            self._report(ctx, original.args[0].value, "look up")
            return updated
        if ":0" in first and func.attr.value in _STRING_METHODS and _is_name_attribute(ctx, func.value):
            self._report(ctx, original)
        return updated


def _mentions_name_attribute(ctx: RuleContext, node: cst.CSTNode) -> bool:
    if _is_name_attribute(ctx, node):
        return True
    if isinstance(node, cst.Tuple):
        return any(_is_name_attribute(ctx, e.value) for e in node.elements)
    return False


RULES = (TensorNameSuffix(),)
