"""TF24222 `op-layer-class-name`: op layers are `TFOpLambda` layers from TF 2.4, not
`TensorFlowOpLayer`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import any_of

from .._text import assigned_value

_OLD = "TensorFlowOpLayer"
_COMPARISONS = (cst.Equal, cst.NotEqual, cst.In, cst.NotIn)


class OpLayerClassName(Rule):
    """Op layers are `TFOpLambda` layers from TF 2.4, not `TensorFlowOpLayer`.

    A TensorFlow op called on Keras symbolic values while a functional model is built becomes a
    layer. TF 2.3 made it a `TensorFlowOpLayer` (saved in a model's config with `class_name`
    `"TensorFlowOpLayer"` and the op's `node_def`); TF 2.4 makes a `TFOpLambda` (`class_name`
    `"TFOpLambda"`, the op's `function` name), so code that finds op layers by that class name
    finds none (executed on TF 2.3.0 and 2.4.0; openvinotoolkit/nncf#538 and #1083). Reported: the
    string `"TensorFlowOpLayer"` compared with something (`==`, `!=`, `in`, `not in`), and
    `["node_def"]` read from a `get_config()` result (directly, or through a name bound to it in
    the same scope), which raises `KeyError` for a `TFOpLambda`. Not rewritten: a model saved by
    TF 2.3 still holds `TensorFlowOpLayer`s, so code may need both.

    Reported: `op_layers = [layer for layer in config["layers"] if layer["class_name"] == "TensorFlowOpLayer"]`
    Write instead: `op_layers = [layer for layer in config["layers"] if layer["class_name"] in ("TensorFlowOpLayer", "TFOpLambda")]`

    Versions: `TFOpLambda` is what TF 2.4's functional API builds (tensorflow/python/keras/layers/core.py
    of the tensorflow-cpu 2.4.0 wheel; absent in 2.3.0).
    """

    code = "TF24222"
    name = "op-layer-class-name"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # and an op layer's config read for its `node_def`, with the `get_config()` lines whose
    # bindings that reads (not followed further)
    triggers = (_OLD, "node_def", "get_config")
    requires = (*IMPORTS_TENSORFLOW, any_of(_OLD, "node_def"))
    follows = ()

    def leave_Subscript(
        self, ctx: RuleContext, original: cst.Subscript, updated: cst.Subscript
    ) -> cst.BaseExpression:
        if len(original.slice) != 1 or not isinstance(original.slice[0].slice, cst.Index):
            return updated
        key = original.slice[0].slice.value
        if not (isinstance(key, cst.SimpleString) and key.evaluated_value == "node_def"):
            return updated
        config = original.value
        if isinstance(config, cst.Name):
            config = assigned_value(ctx, config) or config
        func = config.func if isinstance(config, cst.Call) else None
        if isinstance(func, cst.Attribute) and func.attr.value == "get_config":
            ctx.report(
                original,
                "An op layer's config has no `node_def` from TF 2.4: a `TFOpLambda`'s config names the "
                "op in `function` (`tf.nn.relu`); read that too (models saved by TF 2.3 keep "
                "`TensorFlowOpLayer`s).\nOp layers are `TFOpLambda` layers from TF 2.4, not "
                "`TensorFlowOpLayer`s, whose config held the op's `node_def`.",
            )
        return updated

    def leave_Comparison(
        self, ctx: RuleContext, original: cst.Comparison, updated: cst.Comparison
    ) -> cst.BaseExpression:
        if not any(isinstance(target.operator, _COMPARISONS) for target in original.comparisons):
            return updated
        for operand in (original.left, *(target.comparator for target in original.comparisons)):
            if isinstance(operand, cst.SimpleString) and operand.evaluated_value == _OLD:
                ctx.report(
                    operand,
                    "Op layers are `TFOpLambda` from TF 2.4, not `TensorFlowOpLayer`: compare with "
                    '`"TFOpLambda"` too (models saved by TF 2.3 keep `TensorFlowOpLayer`s).\n'
                    "A `TFOpLambda`'s config holds the op's `function` name, not its `node_def`.",
                )
        return updated


RULES = (OpLayerClassName(),)
