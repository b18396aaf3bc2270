"""TF24227 `einsum-op-layer-config`: a Functional model with `tf.einsum` on Keras values cannot
be rebuilt from its config in TF 2.4 (a TF 2.4 bug): its op layer saves no operands."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import word

from ._symbolic import EVIDENCE_TRIGGERS, EVIDENCE_WORDS, symbolic_evidence

_EINSUM = frozenset({"tensorflow.einsum", "tensorflow.linalg.einsum"})
_FROM_CONFIG = frozenset({"tensorflow.keras.Model", "tensorflow.keras.models.Model"})
_REBUILDS = frozenset(
    {
        "tensorflow.keras.models.clone_model",
        "tensorflow.keras.models.model_from_config",
        "tensorflow.keras.models.model_from_json",
        "tensorflow.keras.models.model_from_yaml",
    }
)
_REBUILD_WORDS = word("from_config", "clone_model", "model_from_config", "model_from_json", "model_from_yaml")
_KEY = ("TF24227", "einsum")  # the first `tf.einsum` on Keras values, for the rebuilds after it


def _rebuild(ctx: RuleContext, call: cst.Call) -> bool:
    """Whether `call` rebuilds a Functional model from its config: `tf.keras.Model.from_config`,
    `clone_model`, `model_from_json` and the like."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "from_config":
        return ctx.qualified_name(func.value) in _FROM_CONFIG
    return ctx.qualified_name(func) in _REBUILDS


class EinsumOpLayerConfig(Rule):
    """A Functional model with `tf.einsum` on Keras values cannot be rebuilt from its config in TF 2.4.

    TF 2.4 records a TF function applied to Keras symbolic values as a `TFOpLambda` layer, whose
    config keeps the arguments given by name but not `tf.einsum`'s operands, which it takes as
    `*inputs` (executed on TF 2.3.0 and 2.4.0): `tf.keras.Model.from_config(model.get_config())`,
    `clone_model` and `model_from_json` then call `tf.einsum` with none, and raise `ValueError`
    ("Got 0 inputs for equation ..."). A TF 2.4 bug (tensorflow/tensorflow#53394, also
    keras-team/keras#15783); TF 2.3 rebuilt such a model. The workaround runs on both: wrap the
    einsum in a `tf.keras.layers.Lambda` layer, whose config keeps the function.

    Reported at the rebuild (`from_config` of `tf.keras.Model`, `tf.keras.models.clone_model`,
    `model_from_config`, `model_from_json`, `model_from_yaml`) in a file that applies `tf.einsum`
    (or `tf.linalg.einsum`) to a Keras symbolic value (a name traced to
    `tf.keras.Input(...)`, a model's `.input(s)` / `.output(s)`). Not rewritten: the equation and
    operands must move into the `Lambda`.

    Reported:

        x1 = tf.keras.Input((2, 4))
        x2 = tf.keras.Input((4, 3))
        model = tf.keras.Model([x1, x2], tf.einsum("bij,bjk->bik", x1, x2))
        rebuilt = tf.keras.Model.from_config(model.get_config())

    Write instead:

        x1 = tf.keras.Input((2, 4))
        x2 = tf.keras.Input((4, 3))
        product = tf.keras.layers.Lambda(lambda t: tf.einsum("bij,bjk->bik", *t))([x1, x2])
        model = tf.keras.Model([x1, x2], product)
        rebuilt = tf.keras.Model.from_config(model.get_config())

    Versions: `TFOpLambda` (tensorflow/python/keras/layers/core.py) is new in the tensorflow-cpu
    2.4.0 wheel, where `einsum(equation, *inputs, **kwargs)` (tensorflow/python/ops/special_math_ops.py)
    is rebuilt without its operands; 2.3.0's `TensorFlowOpLayer` keeps the op's inputs in its node.
    """

    code = "TF24227"
    name = "einsum-op-layer-config"
    old_removed = "2.4"
    changed_in = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = (word("einsum"), _REBUILD_WORDS)
    requires = (*IMPORTS_TENSORFLOW, EVIDENCE_WORDS, word("einsum"), _REBUILD_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) in _EINSUM:
            self._note_einsum(ctx, original)
            return updated
        if not _rebuild(ctx, original):
            return updated
        einsum = ctx.blocked_reason(_KEY)
        if einsum is None:
            return updated
        ctx.report(
            original,
            f"`{code_for(original.func)}(...)` fails on TF 2.4 for a model with {einsum}: wrap the einsum "
            "in a layer, `tf.keras.layers.Lambda(lambda t: tf.einsum(equation, *t))([a, b])`.\n"
            "TF 2.4's op layer keeps no operands of `tf.einsum` in the model's config, so the rebuilt "
            'model calls it with none ("Got 0 inputs for equation"): a TF 2.4 bug, '
            "tensorflow/tensorflow#53394.",
            evidence=einsum,
        )
        return updated

    def _note_einsum(self, ctx: RuleContext, call: cst.Call) -> None:
        """Note the first `tf.einsum` on a Keras symbolic value: the rules run again, and the
        rebuilds after it are reported."""
        for arg in call.args[1:]:
            if arg.keyword is not None:
                continue
            found = symbolic_evidence(ctx, arg.value)
            if found is not None:
                ctx.block(_KEY, f"`{code_for(call.func)}` on Keras values ({found})")
                return


RULES = (EinsumOpLayerConfig(),)
