"""TF24210 `keras-symbolic-isinstance`: `isinstance(x, tf.Tensor)` is False for Keras symbolic inputs from
TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated, argument_values, code_for
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import any_of, word

from ._symbolic import (
    EVIDENCE_TRIGGERS,
    EVIDENCE_WORDS,
    symbolic_evidence,
)

# `tensorflow.python.keras.backend.is_placeholder(x)`: True for TF 2.3's graph placeholders only
_IS_PLACEHOLDER = frozenset({"tensorflow.python.keras.backend.is_placeholder"})


def _is_builtin_call(ctx: RuleContext, call: cst.Call, name: str) -> bool:
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
    scope, or iterates over a model's `.inputs` / `.outputs` (or a list, a tuple or a dictionary's
    `.values()` of such values), or `x` is a model's `.input(s)` / `.output(s)`, or `x` is a
    parameter of a function of the file (not decorated) that the file calls by its name with such
    a value (`def check(x): ... isinstance(x, tf.Tensor)` and `check(model.output)`, or
    `check(out)` in `for out in model.outputs:`): the check is reported where it is, in the
    function. Everywhere else (a
    `tf.function` argument, a shape dimension, a loss normaliser, a tensor of TF 1 graph code, a
    parameter no call of the file gives a symbolic value) `isinstance(x, tf.Tensor)` means what it
    meant in TF 2.3, and is left alone.

    So is Keras's own test, `backend.is_placeholder(x)` (of `tensorflow.python.keras.backend`):
    True for an `Input` on TF 2.3, False on 2.4. Reported with the same evidence, not rewritten:
    `tf.keras.backend.is_keras_tensor(x)` is True for it on both, and False for tensors that
    are not Keras's (what a placeholder test meant is not visible).

    Before: `inputs = tf.keras.Input((3,))` then `if isinstance(inputs, tf.Tensor): ...`
    After:  `inputs = tf.keras.Input((3,))` then `if tf.is_tensor(inputs): ...`

    Reported: `from tensorflow.python.keras import backend as K` then `inputs = tf.keras.Input((3,))` then `assert K.is_placeholder(inputs)`
    Write instead: `assert tf.keras.backend.is_keras_tensor(inputs)`

    Versions: `tf.is_tensor` exists since TF 2.0 (tensorflow_core/_api/v2/v2.py of the tensorflow 2.0.0
    wheel); the Functional API change is in TF 2.4's release notes; `is_placeholder` and
    `is_keras_tensor` of an `Input` executed on TF 2.3.0 and 2.4.0.
    """

    code = "TF24210"
    name = "keras-symbolic-isinstance"
    new_since = "2.0"
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.WARNING
    triggers = (word("isinstance"), word("is_placeholder"))
    # `Tensor` as a name (`_names_a_tensor`), not in `TensorShape`, `TensorSpec` nor `KerasTensor`
    requires = (*IMPORTS_TENSORFLOW, EVIDENCE_WORDS, any_of(word("Tensor"), word("is_placeholder")))
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) in _IS_PLACEHOLDER:
            self._is_placeholder(ctx, original)
            return updated
        if not _is_builtin_call(ctx, original, "isinstance"):
            return updated
        if len(original.args) != 2 or any(arg.star or arg.keyword for arg in original.args):
            return updated
        value, kind = original.args
        evidence = symbolic_evidence(ctx, value.value)
        if evidence is None:
            return updated
        shown = abbreviated(value.value)
        what = f"`isinstance({shown}, tf.Tensor)` is False for Keras symbolic values from TF 2.4"
        why = (
            f"{sentence(evidence)}; they are `KerasTensor`s now. `tf.is_tensor({shown})` "
            "is True for them on TF 2.4–2.15 and tf_keras (also for variables, sparse and ragged tensors); "
            f"under Keras 3 use `tf.keras.backend.is_keras_tensor({shown})` for symbolic values."
        )
        if isinstance(kind.value, cst.Tuple):
            if any(ctx.qualified_name(e.value) == "tensorflow.Tensor" for e in kind.value.elements):
                ctx.report(
                    original,
                    f"{what}: take `tf.Tensor` out of the tuple and add `or tf.is_tensor({shown})`.\n{why}",
                    evidence=evidence,
                )
            return updated
        if ctx.qualified_name(kind.value) != "tensorflow.Tensor":
            return updated
        is_tensor = ctx.spell("tensorflow.is_tensor", like=kind.value)
        message = f"{what}: use `tf.is_tensor({shown})`.\n{why}"
        if is_tensor is None:
            ctx.report(original, message, evidence=evidence)
            return updated
        argument = updated.args[0]
        comma_has_comment = isinstance(argument.comma, cst.Comma) and "#" in code_for(argument.comma)
        if not comma_has_comment:
            argument = argument.with_changes(comma=cst.MaybeSentinel.DEFAULT)
        replacement = updated.with_changes(func=is_tensor, args=[argument])
        return ctx.report(original, message, replacement=replacement, evidence=evidence) or updated

    def _is_placeholder(self, ctx: RuleContext, call: cst.Call) -> None:
        """Report `K.is_placeholder(x)` of a visibly Keras symbolic `x`: False from TF 2.4."""
        given = argument_values(call, 0, "x")
        evidence = symbolic_evidence(ctx, given[0]) if given else None
        if evidence is None:
            return
        shown = abbreviated(given[0])
        ctx.report(
            call,
            f"`{abbreviated(call)}` is False for Keras symbolic values from TF 2.4: use "
            f"`tf.keras.backend.is_keras_tensor({shown})`.\n"
            f"{sentence(evidence)}; they are `KerasTensor`s now, not graph placeholders.",
            evidence=evidence,
        )


RULES = (KerasSymbolicIsinstance(),)
