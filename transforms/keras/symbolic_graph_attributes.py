"""TF24216 `symbolic-graph-attributes`: Keras symbolic tensors have no `op`, `graph`,
`consumers()` or other graph-tensor attribute from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.model.release_diff import SYMBOLIC_ATTRIBUTES_GONE
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import Pattern, after_dot

from ._symbolic import EVIDENCE_IN_FILE, EVIDENCE_TRIGGERS, EVIDENCE_WORDS, caught, symbolic_evidence

# attribute -> what to write instead
_INSTEAD = {
    "op": "for the names of a model's outputs use `model.output_names`; to freeze or export the "
    "graph, trace the model: `tf.function(model).get_concrete_function(tf.TensorSpec(shape, dtype))` "
    "and its `.graph` (`convert_variables_to_constants_v2` freezes it); for Grad-CAM, build "
    "`tf.keras.Model(model.inputs, [layer.output, model.output])` and take gradients with "
    "`tf.GradientTape` on real inputs",
    "graph": "a functional model is no longer built in a graph: trace one with "
    "`tf.function(model).get_concrete_function(tf.TensorSpec(shape, dtype)).graph`",
    "consumers": "follow the model's layers (`model.layers` and each layer's `input` / `output`) instead",
}
_SHAPE = {
    "_shape_as_list": "read `{receiver}.shape.as_list()`",
    "_shape_tuple": "read `tuple({receiver}.shape)`",
    "_rank": "read `{receiver}.shape.rank`",
}
# what else a graph tensor had: a layer's tensors exist only once the model runs on data
_ELSE = (
    "call the model on data for real tensors, which have `.{attribute}`, or read the layer "
    "(`model.get_layer(...)`) or the model's `output_names`"
)
# `op` raises TypeError on a `KerasTensor`; the others, gone from the class, AttributeError
_GONE = frozenset({"op", *SYMBOLIC_ATTRIBUTES_GONE})
_ATTRIBUTES = after_dot(*sorted(_GONE))


def _instead(read: cst.Attribute) -> str:
    """What to write instead of `read`, an attribute of a Keras symbolic value."""
    attribute = read.attr.value
    if attribute in _INSTEAD:
        return _INSTEAD[attribute]
    return _SHAPE.get(attribute, _ELSE).format(receiver=abbreviated(read.value), attribute=attribute)


class SymbolicGraphAttributes(Rule):
    """Keras symbolic tensors have no `op`, `graph`, `consumers()` or other graph-tensor attribute from TF 2.4.

    Functional models are built from `KerasTensor`s, which are not graph tensors: reading `.op`
    raises `TypeError`, `.graph` and `.consumers` raise `AttributeError` (executed on TF 2.4.0).
    The common recipes break: freezing a model with `[t.op.name for t in model.outputs]`, reaching
    its graph through `model.outputs[0].graph`, Grad-CAM through `model.output.op.inputs[0]`. So
    does every other attribute of a graph tensor a `KerasTensor` lacks (`.device`,
    `.value_index`, `._shape_as_list()`, ...): the releases' own list,
    `release_diff.SYMBOLIC_ATTRIBUTES_GONE`, diffed from a layer's output on each. Each finding
    says what to write instead. Not rewritten: the replacement traces the model.

    Reported only where the receiver is visibly a Keras symbolic value: a model's or layer's
    `.input(s)` / `.output(s)`, a name iterating over them, or a name bound to `tf.keras.Input(...)`
    (or computed from one). Graph tensors of TF 1 code and of `tf.function`s keep these attributes,
    and so do Keras's own values where a graph is the default (`with tf.compat.v1.Session(graph=
    tf.Graph()):`, `with graph.as_default():`), after `if tf2.enabled(): raise ...` in the same
    function, or once eager execution is off (`tf.compat.v1.disable_eager_execution()` before it
    in the function, or anywhere in the module's own code): Keras builds graph tensors there on
    TF 2.4 too (executed on 2.4.0), not reported. Nor is an access in the body of a `try` of its
    function that catches the error (`except AttributeError: pass`): the code copes with it.

    Reported: `output_names = [out.op.name for out in model.outputs]`
    Write instead: `output_names = model.output_names`

    Versions: the Functional API change is in TF 2.4's release notes; `.op` of a model output gives
    the operation on TF 2.3.0 and raises on 2.4.0 (executed); the other attributes are those of
    `dir()` of a `Dense` layer's output on TF 2.3.0 and not on 2.4.0 (`python -m tf24migrate.dev
    releases`; `.device`, `.value_index`, `._shape_as_list()`, `._shape_tuple()`, `._rank()`,
    `._op` executed on both).
    """

    code = "TF24216"
    name = "symbolic-graph-attributes"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # an attribute read, also as `.\` then `op` on the next line (found by its backslash: a
    # single character is found ten times as fast as two, and most files hold none)
    triggers = (_ATTRIBUTES, Pattern(r"\.\\\r?(?m:$)", "\\"))
    requires = (*MENTIONS_TENSORFLOW, EVIDENCE_IN_FILE, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.Attribute:
        attribute = original.attr.value
        if attribute not in _GONE:
            return updated
        evidence = symbolic_evidence(ctx, original.value)
        raised = "TypeError" if attribute == "op" else "AttributeError"
        if evidence is None or caught(ctx, raised):
            return updated
        ctx.report(
            original,
            f"`{abbreviated(original)}` of a Keras symbolic tensor raises {raised} from TF 2.4\n"
            f"{sentence(evidence)}. `KerasTensor`s are not graph tensors: "
            f"{_instead(original)}.",
            evidence=evidence,
        )
        return updated


RULES = (SymbolicGraphAttributes(),)
