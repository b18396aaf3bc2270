"""TF24404 `from-generator-signature`: `Dataset.from_generator(gen, output_types=T, output_shapes=S)` becomes `Dataset.from_generator(gen, output_signature=...)` when T and S are written out (opt-in)."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    bind_or_report,
    evaluation_order_kept,
    rebuild_args,
    updated_values,
)
from tf24migrate.rules.context import RuleContext

from ._server_config import is_none, keyword_call

_FROM_GENERATOR = "tensorflow.data.Dataset.from_generator"


_DTYPES = frozenset(
    [
        "bfloat16",
        "bool",
        "complex128",
        "complex64",
        "double",
        "float16",
        "float32",
        "float64",
        "half",
        "int16",
        "int32",
        "int64",
        "int8",
        "qint16",
        "qint32",
        "qint8",
        "quint16",
        "quint8",
        "resource",
        "string",
        "uint16",
        "uint32",
        "uint64",
        "uint8",
        "variant",
    ]
)


class FromGeneratorSignature(Rule):
    """`Dataset.from_generator(gen, output_types=T, output_shapes=S)` becomes
    `Dataset.from_generator(gen, output_signature=...)` when T and S are written out (opt-in).

    TF 2.4 deprecated `output_types` / `output_shapes` in favour of `output_signature`, a
    structure of `tf.TensorSpec(shape, dtype)`. The old arguments still work through TF 2.21, so
    the rule runs only when selected (`--select TF24404`). The rewrite pairs each dtype with its
    shape: a single dtype with a shape, or tuples / dicts (string keys) of dtypes with tuples /
    dicts of shapes of the same layout. A shape is a tuple or list of integers and `None`, or a
    `tf.TensorShape(...)` call. `generator` and `args` keep their values (`args` as a keyword).

    Before: `tf.data.Dataset.from_generator(gen, (tf.int64, tf.float32), ((), (None, 3)))`
    After:  `tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec(shape=(), dtype=tf.int64), tf.TensorSpec(shape=(None, 3), dtype=tf.float32)))`

    Not rewritten, reported: structures that are not written out in the call (a variable, a
    computed shape), calls without `output_shapes` (the shapes are unknown), calls passing
    `*args` / `**kwargs`, and calls whose arguments' calls would run in another order (`args=`
    or `output_shapes=` before a generator that is called, `args=` before shapes that are).

    Versions: `output_signature=` exists since TF 2.4 (`Dataset.from_generator` in
    tensorflow/python/data/ops/dataset_ops.py of the tensorflow-cpu 2.4.0 wheel; absent in 2.3.0);
    `output_types=` is still accepted, deprecated, in 2.15.1.
    """

    code = "TF24404"
    name = "from-generator-signature"
    new_since = "2.4"
    fix = Fix.SAFE
    severity = Severity.INFO
    default = False
    triggers = ("from_generator",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != _FROM_GENERATOR:
            return updated
        if any(arg.keyword is not None and arg.keyword.value == "output_signature" for arg in original.args):
            return updated
        message = "`from_generator(output_types=, output_shapes=)` is deprecated from TF 2.4"
        by_hand = (
            f"{message}: pass `output_signature=` with a `tf.TensorSpec(shape, dtype)` for each dtype instead"
        )
        bound = bind_or_report(ctx, original, ("generator", "output_types", "output_shapes", "args"), by_hand)
        if bound is None:
            return updated
        if "output_types" not in bound:
            return updated
        if "output_shapes" not in bound:
            ctx.report(original, f"{by_hand} (`shape=None` where the shape is unknown).")
            return updated
        new_values = updated_values(original, updated)
        tensor_spec = ctx.spell("tensorflow.TensorSpec", like=original.func)
        signature = _signature(
            ctx, new_values[bound["output_types"]], new_values[bound["output_shapes"]], tensor_spec
        )
        if signature is None or tensor_spec is None:
            ctx.report(original, f"{by_hand}; the structures are not written out in the call.")
            return updated
        generator = bound.get("generator")
        carried = [bound[name] for name in ("generator", "output_shapes", "args") if name in bound]
        if not evaluation_order_kept(updated, [new_values[arg] for arg in carried]):
            ctx.report(
                original,
                f"{by_hand}; written as `(generator, output_signature, args)`, the calls in its "
                "arguments would run in another order.",
            )
            return updated
        new_args: list[tuple[str | None, cst.BaseExpression]] = []
        if generator is not None:
            new_args.append((generator.keyword.value if generator.keyword else None, new_values[generator]))
        new_args.append(("output_signature", signature))
        if "args" in bound:
            new_args.append(("args", new_values[bound["args"]]))
        replacement = updated.with_changes(args=rebuild_args(updated.args, new_args))
        return (
            ctx.report(original, f"{message}: pass `output_signature=`.", replacement=replacement) or updated
        )


def _is_dtype(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    name = ctx.qualified_name(node)
    return (
        name is not None
        and name.startswith("tensorflow.")
        and not name.startswith("tensorflow.compat.v1")
        and name.rsplit(".", 1)[1] in _DTYPES
    )


def _is_shape(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(
            isinstance(element, cst.Element)
            and (isinstance(element.value, cst.Integer) or is_none(element.value))
            for element in node.elements
        )
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) == "tensorflow.TensorShape":
        return (
            len(node.args) == 1
            and not node.args[0].star
            and (_is_shape(ctx, node.args[0].value) or is_none(node.args[0].value))
        )
    return False


def _signature(
    ctx: RuleContext,
    types: cst.BaseExpression,
    shapes: cst.BaseExpression,
    tensor_spec: cst.BaseExpression | None,
) -> cst.BaseExpression | None:
    """The `output_signature` structure pairing `types` with `shapes`; None when either is not
    written out or their layouts differ."""
    if tensor_spec is None:
        return None
    if _is_dtype(ctx, types) and _is_shape(ctx, shapes):
        return keyword_call(tensor_spec, [("shape", shapes), ("dtype", types)])
    if isinstance(types, cst.Tuple) and isinstance(shapes, (cst.Tuple, cst.List)):
        if len(types.elements) != len(shapes.elements) or not types.elements:
            return None
        if any(isinstance(e, cst.StarredElement) for e in (*types.elements, *shapes.elements)):
            return None
        specs = [
            _signature(ctx, t.value, s.value, tensor_spec)
            for t, s in zip(types.elements, shapes.elements, strict=True)
        ]
        if any(spec is None for spec in specs):
            return None
        elements = [t.with_changes(value=spec) for t, spec in zip(types.elements, specs, strict=True)]
        return types.with_changes(elements=elements)
    if isinstance(types, cst.Dict) and isinstance(shapes, cst.Dict):
        type_items = _string_keyed(types)
        shape_items = _string_keyed(shapes)
        if type_items is None or shape_items is None or set(type_items) != set(shape_items):
            return None
        items: list[cst.BaseDictElement] = []
        for key, element in type_items.items():
            spec = _signature(ctx, element.value, shape_items[key].value, tensor_spec)
            if spec is None:
                return None
            items.append(element.with_changes(value=spec))
        return types.with_changes(elements=items)
    return None


def _string_keyed(node: cst.Dict) -> dict[str | bytes, cst.DictElement] | None:
    items: dict[str | bytes, cst.DictElement] = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
            return None
        items[element.key.evaluated_value] = element
    return items


RULES = (FromGeneratorSignature(),)
