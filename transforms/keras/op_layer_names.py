"""TF24217 `op-layer-names`: a TF op's `name=` no longer names its layer in a functional model
from TF 2.4, and op layers are no longer named `tf_op_layer_<name>`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import KeywordOfModuleCall, any_of

from .._text import assigned_value, literal_value
from ._symbolic import EVIDENCE_IN_FILE, EVIDENCE_TRIGGERS, EVIDENCE_WORDS, expression_evidence

_PREFIX = "tf_op_layer_"
# `name=` of a call that can be a TF op (not of a Keras layer's, nor of `self.dense(`)
_OP_NAME = KeywordOfModuleCall("name", "tensorflow", "keras")
_INSTEAD = (
    "wrap the op in a layer you name, `tf.keras.layers.Lambda(lambda x: tf.identity(x), name=...)`, "
    "and use that name"
)


def _named_op_call(ctx: RuleContext, node: cst.CSTNode) -> tuple[cst.Arg, str] | None:
    """The `name=` argument of a TF op (not a Keras layer) called on a Keras symbolic value, and
    the evidence, when `node` is such a call."""
    if not isinstance(node, cst.Call):
        return None
    qualified = ctx.qualified_name(node.func) or ""
    if not qualified.startswith("tensorflow.") or qualified.startswith("tensorflow.keras."):
        return None
    name = next((arg for arg in node.args if arg.keyword is not None and arg.keyword.value == "name"), None)
    if name is None:
        return None
    for arg in node.args:
        if arg is not name:
            evidence = expression_evidence(ctx, arg.value)
            if evidence is not None:
                return name, evidence
    return None


def _names_read(ctx: RuleContext, name: cst.BaseExpression) -> bool:
    """Whether the file may read the names of its layers or tensors: it spells the `name=` string
    again (`get_layer("scores")`), or reads `output_names`, `get_layer` or `.name`. Where it does
    not, the ignored `name=` changes nothing the code sees: a note."""
    value = literal_value(name) if isinstance(name, cst.SimpleString) else None
    source = ctx.source
    if value is not None and source.count(value) > 1:
        return True
    return any(read in source for read in ("output_names", "get_layer", ".name"))


def _defines_prefix(ctx: RuleContext, string: cst.SimpleString, value: str) -> bool:
    """Whether `string` is the bare prefix assigned to a name (`PREFIX = "tf_op_layer_"`, as Keras
    defines it): a constant of an implementation, not the name of a layer."""
    parent = ctx.ancestors[0] if ctx.ancestors else None
    return value == _PREFIX and isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is string


class OpLayerNames(Rule):
    """A TF op's `name=` no longer names its layer in a functional model from TF 2.4, and op
    layers are no longer named `tf_op_layer_<name>`.

    A TF op called on Keras symbolic values becomes a layer of the model. TF 2.3 named it
    `tf_op_layer_<name>` after the op's `name=`, and its output tensor after that name too; TF 2.4
    ignores `name=` and names the layer after the op (`tf.identity`, `tf.math.add_1`), so
    `model.output_names`, `get_layer(...)` and the output tensor's name change (executed on TF
    2.3.0 and 2.4.0). Reported: a string that starts with `tf_op_layer_`, and the `name=` of a TF op
    called on a value the file shows to be Keras symbolic (a note where the file reads no names:
    it spells the string nowhere else and reads no `output_names`, `get_layer` or `.name`), and a
    `.name` read of its result. Not
    reported: the bare prefix assigned to a name (`_TF_OP_LAYER_NAME_PREFIX = "tf_op_layer_"`, as
    Keras itself defines it), which names no layer. Not rewritten: the layer to name is yours to
    choose.

    Reported: `outputs = tf.identity(inputs, name="scores")` then `model.get_layer("tf_op_layer_scores")`
    Write instead: `outputs = tf.keras.layers.Lambda(tf.identity, name="scores")(inputs)` then `model.get_layer("scores")`

    Versions: the Functional API change is in TF 2.4's release notes (the names and number of op
    layers).
    """

    code = "TF24217"
    name = "op-layer-names"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # `name=` as a keyword on its line (not `x.name`, `name ==`)
    triggers = (_PREFIX, _OP_NAME, ".name")
    # the prefix wherever it is; else an op's `name=` (what `.name` reads too) and evidence
    requires = (
        *MENTIONS_TENSORFLOW,
        EVIDENCE_IN_FILE,
        any_of(_PREFIX, EVIDENCE_WORDS),  # first: the other rules of the family look for it too
        any_of(_PREFIX, _OP_NAME),
    )
    follows = EVIDENCE_TRIGGERS

    def leave_SimpleString(
        self, ctx: RuleContext, original: cst.SimpleString, updated: cst.SimpleString
    ) -> cst.SimpleString:
        value = literal_value(original)
        if value is not None and value.startswith(_PREFIX) and not _defines_prefix(ctx, original, value):
            ctx.report(
                original,
                f"TF 2.4 no longer names op layers `{_PREFIX}<name>`\nAn op's `name=` no longer names its "
                f"layer: it is named after the op, such as `tf.identity`. Instead, {_INSTEAD}.",
            )
        return updated

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.Call:
        found = _named_op_call(ctx, original)
        if found is not None:
            name, evidence = found
            ctx.report(
                name,
                f"`{abbreviated(original.func)}(..., name=...)` on a Keras symbolic value: from TF 2.4 "
                f"`name=` names neither its layer nor its tensor\n{sentence(evidence)}. "
                "`model.output_names`, `get_layer` and the tensor's `.name` see another name: "
                f"{_INSTEAD}.",
                evidence=evidence,
                note=not _names_read(ctx, name.value),
            )
        return updated

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.Attribute:
        if original.attr.value != "name" or not isinstance(original.value, cst.Name):
            return updated
        value = assigned_value(ctx, original.value)
        if value is not None and _named_op_call(ctx, value) is not None:
            ctx.report(
                original,
                f"`{abbreviated(original)}` is the op's name from TF 2.4, not its `name=`\n"
                f"`{original.value.value}` comes from a TF op called with `name=` on a Keras symbolic value: "
                f"from TF 2.4 its `.name` is the op's (such as `tf.identity/Identity:0`): {_INSTEAD}.",
            )
        return updated


RULES = (OpLayerNames(),)
