"""TF24312 `embedding-output-dtype`: under a mixed policy, `Embedding` outputs float16 (or bfloat16)
from TF 2.4, not float32."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import any_of, word

from .._text import assigned_value, links, literal_value
from ._common import EXPERIMENTAL, STABLE

_EMBEDDING = "tensorflow.keras.layers.Embedding"
_EMBEDDING_NAME = word("Embedding")
_SETTERS = frozenset({f"{EXPERIMENTAL}.set_policy", f"{STABLE}.set_global_policy"})
_POLICIES = frozenset({f"{EXPERIMENTAL}.Policy", f"{STABLE}.Policy"})
MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}
_FLOAT32 = frozenset({"tensorflow.float32", "tensorflow.dtypes.float32"})
_EQUALITY = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
_ARITHMETIC = (cst.Multiply, cst.Add, cst.Subtract, cst.Divide, cst.MatrixMultiply)
_CASTS = frozenset({"tensorflow.cast", "tensorflow.dtypes.cast"})


def _is_embedding(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is an `Embedding(...)` layer: the construction, or a name bound to it here."""
    if isinstance(node, cst.Name):
        value = assigned_value(ctx, node)
        if value is None:
            return False
        node = value
    return isinstance(node, cst.Call) and ctx.qualified_name(node.func) == _EMBEDDING


def _is_embedding_output(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is what an `Embedding` layer returned: `Embedding(...)(ids)`, `layer(ids)`
    with `layer = Embedding(...)`, or a name bound to one of these in the same scope."""
    if isinstance(node, cst.Name):
        value = assigned_value(ctx, node)
        if value is None:
            return False
        node = value
    return isinstance(node, cst.Call) and _is_embedding(ctx, node.func)


def _is_float32(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    return ctx.qualified_name(node) in _FLOAT32 or literal_value(node) == "float32"


def _makes_float32(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is visibly a float32 tensor: a TensorFlow call given `dtype=tf.float32`
    (`tf.ones(shape, dtype=tf.float32)`), `tf.cast(x, tf.float32)`, or a name bound to one of these
    in the same scope."""
    if isinstance(node, cst.Name):
        node = assigned_value(ctx, node) or node
    if not isinstance(node, cst.Call) or not (ctx.qualified_name(node.func) or "").startswith("tensorflow."):
        return False
    if ctx.qualified_name(node.func) in _CASTS and len(node.args) >= 2:
        return _is_float32(ctx, node.args[1].value)
    return any(
        a.keyword is not None and a.keyword.value == "dtype" and _is_float32(ctx, a.value) for a in node.args
    )


def _policy_set(ctx: RuleContext, call: cst.Call) -> str | None:
    """The mixed policy `call` makes global (`set_policy("mixed_float16")`,
    `set_global_policy(Policy("mixed_bfloat16"))`, or a name bound to such a `Policy`), else None."""
    if ctx.qualified_name(call.func) not in _SETTERS:
        return None
    given = [a for a in call.args if a.keyword is None or a.keyword.value == "policy"]
    if not given or given[0].star:
        return None
    policy = given[0].value
    if isinstance(policy, cst.Name):
        policy = assigned_value(ctx, policy) or policy
    if isinstance(policy, cst.Call) and ctx.qualified_name(policy.func) in _POLICIES and policy.args:
        policy = policy.args[0].value
    name = literal_value(policy)
    return name if name in MIXED else None


def mixed_policy(ctx: RuleContext) -> str | None:
    """The mixed policy a call in the file makes global (the first found), else None."""
    stack: list[cst.CSTNode] = [ctx.ancestors[-1]] if ctx.ancestors else []
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call):
            found = _policy_set(ctx, node)
            if found is not None:
                return found
        stack.extend(reversed(node.children))
    return None


class EmbeddingOutputDtype(Rule):
    """Under a mixed policy, `Embedding` outputs float16 (or bfloat16) from TF 2.4, not float32.

    In TF 2.3 a `tf.keras.layers.Embedding` layer returned float32 under the `mixed_float16` and
    `mixed_bfloat16` policies; from TF 2.4 it returns the policy's compute dtype, float16 or
    bfloat16, like every other layer (TF 2.4's release notes; executed on TF 2.3.0 with the
    experimental `set_policy`, and on TF 2.4.0 with it and with the stable `set_global_policy`,
    under both policies). Code that checks the dtype of an embedding's output against float32 stops
    passing. Report only: compare with the policy's compute dtype, or cast the output where float32
    is needed.

    Reported where the file makes a mixed policy global (`set_policy("mixed_float16")`,
    `set_global_policy(Policy("mixed_bfloat16"))`) and the `.dtype` of a value an `Embedding` layer
    returned (`Embedding(...)(ids)`, or `layer(ids)` with `layer = Embedding(...)`, bound in the same
    scope) is compared with float32 (`==`, `!=`, `is`, `is not`), or combined by an arithmetic
    operator with a visibly float32 tensor (`embedded * tf.ones(shape, dtype=tf.float32)`,
    `tf.cast(x, tf.float32)`, or a name bound to one), which raises from TF 2.4 (executed on TF
    2.3.0 and 2.4.0). Without a mixed policy in the file, or compared with float16, nothing changes
    and nothing is reported.

    Reported: `tf.keras.mixed_precision.experimental.set_policy("mixed_float16")` then `embedded = tf.keras.layers.Embedding(10, 4)(ids)` then `assert embedded.dtype == tf.float32`
    Write instead: `tf.keras.mixed_precision.set_global_policy("mixed_float16")` then `embedded = tf.keras.layers.Embedding(10, 4)(ids)` then `assert embedded.dtype == tf.keras.mixed_precision.global_policy().compute_dtype` (or cast: `tf.cast(embedded, tf.float32)`)

    Versions: the change is in TF 2.4's release notes (`tf.keras.mixed_precision`: under mixed
    precision, `Embedding` outputs float16/bfloat16); `global_policy` is stable from TF 2.4.
    """

    code = "TF24312"
    name = "embedding-output-dtype"
    changed_in = "2.4"
    fix = None
    severity = Severity.WARNING
    # `Embedding` where the layer is made (as a name: not `OnDeviceEmbedding` nor
    # `EmbeddingTest`, whose lines would have every use of what they bind followed); the names
    # bound there are followed to the `.dtype`; the setters and `Policy(...)`, where the policy is
    # set (`mixed_policy` reads them).
    # `float32`, where a float32 tensor an embedding's output is combined with may be made.
    triggers = (_EMBEDDING_NAME, "set_policy", "set_global_policy", "Policy", "float32")
    requires = (
        *IMPORTS_TENSORFLOW,
        "Embedding",
        any_of(".dtype", "float32"),
        any_of("mixed_float16", "mixed_bfloat16"),
    )
    follows = (_EMBEDDING_NAME,)

    def leave_Comparison(
        self, ctx: RuleContext, original: cst.Comparison, updated: cst.Comparison
    ) -> cst.BaseExpression:
        for operator, left, right in links(original):
            if isinstance(operator, _EQUALITY):
                for dtype_side, other in ((left, right), (right, left)):
                    if (
                        isinstance(dtype_side, cst.Attribute)
                        and dtype_side.attr.value == "dtype"
                        and _is_float32(ctx, other)
                        and _is_embedding_output(ctx, dtype_side.value)
                    ):
                        self._report(ctx, original, dtype_side)
                        return updated
        return updated

    def leave_BinaryOperation(
        self, ctx: RuleContext, original: cst.BinaryOperation, updated: cst.BinaryOperation
    ) -> cst.BaseExpression:
        if not isinstance(original.operator, _ARITHMETIC):
            return updated
        for output, other in ((original.left, original.right), (original.right, original.left)):
            if _is_embedding_output(ctx, output) and _makes_float32(ctx, other):
                policy = mixed_policy(ctx)
                if policy is None:
                    return updated
                ctx.report(
                    original,
                    f"`{abbreviated(output)}` is {MIXED[policy]} under `{policy}` from TF 2.4, and "
                    f"`{abbreviated(other)}` float32: combining them raises; cast one to the other's "
                    f"dtype (`tf.cast({abbreviated(other)}, {abbreviated(output)}.dtype)`).\n`Embedding` "
                    "returned float32 under a mixed policy in TF 2.3 and returns the compute dtype from "
                    "TF 2.4, like every layer; TensorFlow does not combine float16 and float32 tensors.",
                    evidence=f"the file sets the global policy `{policy}`",
                )
                return updated
        return updated

    def _report(self, ctx: RuleContext, comparison: cst.Comparison, dtype: cst.Attribute) -> None:
        policy = mixed_policy(ctx)
        if policy is None:
            return
        shown, value = abbreviated(dtype), abbreviated(dtype.value)
        ctx.report(
            comparison,
            f"`{shown}` is {MIXED[policy]}, not float32, under `{policy}` from TF 2.4: compare with the "
            "policy's compute dtype.\n`Embedding` returned float32 under a mixed policy in TF 2.3 and "
            "returns the compute dtype from TF 2.4, like every layer. Compare with "
            "`tf.keras.mixed_precision.global_policy().compute_dtype`, or cast where float32 is "
            f"needed: `tf.cast({value}, tf.float32)`.",
            evidence=f"the file sets the global policy `{policy}`",
        )


RULES = (EmbeddingOutputDtype(),)
