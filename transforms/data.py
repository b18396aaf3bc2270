"""tf.data (TF244xx): tf.data service servers that take config tuples, `AUTOTUNE`, and
`Dataset.from_generator(output_signature=)`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    bind_or_report,
    close_multiline_call,
    is_multiline,
    keyword_arg,
    leading_comment_lines,
    line_break,
    nested_multiline_call,
    rebuild_args,
    updated_values,
)
from tf24migrate.rules.kinds import RenameSymbol
from tf24migrate.rules.names import dotted_parts

SERVICE = "tensorflow.data.experimental.service"
_SPACED_COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_bool(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value in ("True", "False")


def _keyword_call(func: cst.BaseExpression, arguments: list[tuple[str, cst.BaseExpression]]) -> cst.Call:
    args = [keyword_arg(name, value) for name, value in arguments]
    args = [arg.with_changes(comma=_SPACED_COMMA) for arg in args[:-1]] + args[-1:]
    return cst.Call(func, args)


class _ServerConfig(Rule):
    """A tf.data service server whose TF 2.3 arguments move into a config tuple in TF 2.4."""

    requires = IMPORTS_TENSORFLOW

    server: str = ""
    config: str = ""
    old_params: tuple[str, ...] = ()
    config_order: tuple[str, ...] = ()  # keywords of the config, in the order they are written
    required: tuple[str, ...] = ()
    fix = Fix.SAFE
    severity = Severity.ERROR

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != f"{SERVICE}.{self.server}":
            return updated
        if self._already_migrated(ctx, original):
            return updated
        message = (
            f"`{self.server}({', '.join(self.old_params)})` takes a `{self.config}` in TF 2.4 "
            f"(`{self.server}(config, start=True)`)"
        )
        by_hand = (
            f"{message}: rewrite the call by hand as `{self.server}({self.config}("
            f"{', '.join(f'{name}=...' for name in self.config_order)}), start=...)`, with keywords only"
        )
        bound = bind_or_report(ctx, original, self.old_params, by_hand)
        if bound is None:
            return updated
        missing = [name for name in self.required if name not in bound]
        if missing:
            ctx.report(original, f"{by_hand}; the call passes no `{'`, `'.join(missing)}`.")
            return updated
        config_func = self._config_name(ctx, original.func)
        if config_func is None:
            ctx.report(original, f"{by_hand}; this file has no way to name `{self.config}`.")
            return updated
        new_values = updated_values(original, updated)
        config_args = [
            (name, new_values[id(bound[name])])
            for name in self.config_order
            if name in bound and not _is_none(bound[name].value)
        ]
        if is_multiline(original):
            replacement = self._multiline(updated, bound, config_func, original)
        else:
            new_args: list[tuple[str | None, cst.BaseExpression]] = [
                (None, _keyword_call(config_func, config_args))
            ]
            if "start" in bound:
                new_args.append(("start", new_values[id(bound["start"])]))
            replacement = updated.with_changes(args=rebuild_args(updated.args, new_args))
        return (
            ctx.report(
                original,
                f"{message}: pass the settings as `{self.config}` keywords.",
                replacement=replacement,
            )
            or updated
        )

    def _multiline(self, updated: cst.Call, bound: dict, config_func, original: cst.Call) -> cst.Call:
        """The rewrite of a call written over several lines: the config call is laid out one
        argument per line too, each argument keeping its comments."""
        updated_args = {id(o): u for o, u in zip(original.args, updated.args, strict=True)}
        moved = [
            (name, updated_args[id(bound[name])])
            for name in self.config_order
            if name in bound and not _is_none(bound[name].value)
        ]
        before = updated.whitespace_before_args
        indent = before.last_line.value if isinstance(before, cst.ParenthesizedWhitespace) else ""
        config = nested_multiline_call(config_func, moved, updated)
        leading = leading_comment_lines(updated)
        if isinstance(before, cst.ParenthesizedWhitespace):  # its comment lines now precede their argument
            updated = updated.with_changes(whitespace_before_args=before.with_changes(empty_lines=[]))
        if "start" not in bound:
            return updated.with_changes(args=close_multiline_call([cst.Arg(config)], updated))
        start = updated_args[id(bound["start"])]
        comments = leading[id(start)]
        args = [
            cst.Arg(config, comma=cst.Comma(whitespace_after=line_break(indent, comments))),
            keyword_arg("start", start.value, like=start),
        ]
        return updated.with_changes(args=close_multiline_call(args, updated))

    def _already_migrated(self, ctx, call: cst.Call) -> bool:
        """TF 2.4 style: `config=`, a config built in the call, no arguments, or a value that is not
        a port in a file that already uses the config class."""
        if any(arg.keyword is not None and arg.keyword.value == "config" for arg in call.args):
            return True
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if not call.args:
            return True
        if positional and isinstance(positional[0], cst.Call):
            parts = dotted_parts(positional[0].func)
            if parts and parts[-1] == self.config:
                return True
        if len(positional) >= 2 and _is_bool(positional[1]):
            return True  # (config, start)
        first_is_port = positional and isinstance(positional[0], cst.Integer)
        return bool(positional) and not first_is_port and self.config in ctx.source

    def _config_name(self, ctx, func: cst.BaseExpression) -> cst.BaseExpression | None:
        """The config class reached as the file reached the server class: through the same module
        path or alias, or added to the same `from ... import` statement."""
        if isinstance(func, cst.Name):
            name = ctx.import_alongside(func, self.config)
            if name is not None:
                return name
            return ctx.spell(f"{SERVICE}.{self.config}")
        return ctx.spell(f"{SERVICE}.{self.config}", like=func)


class DispatchServerConfig(_ServerConfig):
    """`tf.data.experimental.service.DispatchServer(port, protocol, start)` takes a
    `DispatcherConfig` from TF 2.4.

    The TF 2.4 constructor is `DispatchServer(config=None, start=True)`. The old arguments move
    into `tf.data.experimental.service.DispatcherConfig`, always as keywords (its positional
    layout grew between releases), in the order `port`, `protocol`; `None` arguments are dropped
    so the defaults apply; `start` stays on the server, as a keyword. The config class is named
    the way the file named the server: through the same module path or alias, or added to the
    same `from ... import` statement. A new call that would make its line longer than the file's
    longest line (at least 79 characters) is split over several lines; a call the user wrote over
    several lines keeps its layout and comments.

    Before: `tf.data.experimental.service.DispatchServer(5050, "grpc", start=False)`
    After:  `tf.data.experimental.service.DispatchServer(tf.data.experimental.service.DispatcherConfig(port=5050, protocol="grpc"), start=False)`

    Not rewritten: calls passing `*args` / `**kwargs` (reported: their values cannot be matched),
    and calls that already look like TF 2.4 (`config=`, a config built in the call, no arguments,
    or a non-literal first argument in a file that already uses `DispatcherConfig`).
    `DispatchServer(0)` happens to run on TF 2.4 (`0` counts as no config) but is rewritten too.

    Versions: `DispatcherConfig` is exported since TF 2.4 and `DispatchServer` takes it instead of `port`
    there (tensorflow/_api/v2/data/experimental/service/__init__.py and
    tensorflow/python/data/experimental/service/server_lib.py of the tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """

    code = "TF24401"
    name = "dispatch-server-config"
    new_since = "2.4"
    old_removed = "2.4"
    triggers = ("DispatchServer",)
    server = "DispatchServer"
    config = "DispatcherConfig"
    old_params = ("port", "protocol", "start")
    config_order = ("port", "protocol")
    required = ("port",)


class WorkerServerConfig(_ServerConfig):
    """`tf.data.experimental.service.WorkerServer(port, dispatcher_address, worker_address,
    protocol, start)` takes a `WorkerConfig` from TF 2.4.

    The TF 2.4 constructor is `WorkerServer(config, start=True)`. The old arguments move into
    `tf.data.experimental.service.WorkerConfig`, always as keywords, because its positional order
    differs from the old server's (`dispatcher_address` comes first). They are written in the
    order `dispatcher_address`, `port`, `worker_address`, `protocol` (the required address first);
    `None` arguments are dropped so the defaults apply; `start` stays on the server, as a
    keyword. The config class is named the way the file named the server (same module path or
    alias, or added to the same `from ... import` statement). Long lines are split as for TF24401.

    Before: `tf.data.experimental.service.WorkerServer(0, dispatcher_address, start=True)`
    After:  `tf.data.experimental.service.WorkerServer(tf.data.experimental.service.WorkerConfig(dispatcher_address=dispatcher_address, port=0), start=True)`

    Not rewritten: calls passing `*args` / `**kwargs` or no dispatcher address (reported), and
    calls that already look like TF 2.4 (`config=`, a config built in the call, a single argument,
    or `(config, True/False)`).

    Versions: `WorkerConfig` is exported since TF 2.4 and `WorkerServer` takes it instead of `port` there
    (tensorflow/_api/v2/data/experimental/service/__init__.py and
    tensorflow/python/data/experimental/service/server_lib.py of the tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """

    code = "TF24402"
    name = "worker-server-config"
    new_since = "2.4"
    old_removed = "2.4"
    triggers = ("WorkerServer",)
    server = "WorkerServer"
    config = "WorkerConfig"
    old_params = ("port", "dispatcher_address", "worker_address", "protocol", "start")
    config_order = ("dispatcher_address", "port", "worker_address", "protocol")
    required = ("port", "dispatcher_address")

    def _already_migrated(self, ctx, call: cst.Call) -> bool:
        positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
        keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
        if len(positional) == 1 and not keywords - {"start"} and not any(arg.star for arg in call.args):
            return True  # WorkerServer(config[, start=S])
        return super()._already_migrated(ctx, call)


DATA_AUTOTUNE = RenameSymbol(
    code="TF24403",
    name="data-autotune",
    new_since="2.4",
    old="tensorflow.data.experimental.AUTOTUNE",
    new="tensorflow.data.AUTOTUNE",
    severity=Severity.INFO,
    default=False,
    message="`tf.data.experimental.AUTOTUNE` is `tf.data.AUTOTUNE` from TF 2.4.",
    doc="""
    `tf.data.experimental.AUTOTUNE` is `tf.data.AUTOTUNE` from TF 2.4 (opt-in).

    Both names are the same constant in TF 2.4 through 2.21, so this is a tidy-up, not a fix: the
    rule runs only when selected (`--select TF24403` or `--select TF244`). Imported names are
    renamed in the import statement and at every use.

    Before: `dataset.prefetch(tf.data.experimental.AUTOTUNE)`
    After:  `dataset.prefetch(tf.data.AUTOTUNE)`

    Not rewritten: `tf.compat.v1.data.experimental.AUTOTUNE`, which code written for TF 1 keeps.

    Versions: `tf.data.AUTOTUNE` is exported since TF 2.4 (tensorflow/_api/v2/data/__init__.py of the
    tensorflow-cpu 2.4.0 wheel; absent in 2.3.0); `tf.data.experimental.AUTOTUNE` is still exported in 2.15.1.
    """,
)

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
    computed shape), calls without `output_shapes` (the shapes are unknown), and calls passing
    `*args` / `**kwargs`.

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

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
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
            ctx, new_values[id(bound["output_types"])], new_values[id(bound["output_shapes"])], tensor_spec
        )
        if signature is None or tensor_spec is None:
            ctx.report(original, f"{by_hand}; the structures are not written out in the call.")
            return updated
        generator = bound.get("generator")
        new_args: list[tuple[str | None, cst.BaseExpression]] = []
        if generator is not None:
            new_args.append(
                (generator.keyword.value if generator.keyword else None, new_values[id(generator)])
            )
        new_args.append(("output_signature", signature))
        if "args" in bound:
            new_args.append(("args", new_values[id(bound["args"])]))
        replacement = updated.with_changes(args=rebuild_args(updated.args, new_args))
        return (
            ctx.report(original, f"{message}: pass `output_signature=`.", replacement=replacement) or updated
        )


def _is_dtype(ctx, node: cst.BaseExpression) -> bool:
    name = ctx.qualified_name(node)
    return (
        name is not None
        and name.startswith("tensorflow.")
        and not name.startswith("tensorflow.compat.v1")
        and name.rsplit(".", 1)[1] in _DTYPES
    )


def _is_shape(ctx, node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Tuple, cst.List)):
        return all(
            isinstance(element, cst.Element)
            and (isinstance(element.value, cst.Integer) or _is_none(element.value))
            for element in node.elements
        )
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) == "tensorflow.TensorShape":
        return (
            len(node.args) == 1
            and not node.args[0].star
            and (_is_shape(ctx, node.args[0].value) or _is_none(node.args[0].value))
        )
    return False


def _signature(ctx, types, shapes, tensor_spec) -> cst.BaseExpression | None:
    """The `output_signature` structure pairing `types` with `shapes`; None when either is not
    written out or their layouts differ."""
    if tensor_spec is None:
        return None
    if _is_dtype(ctx, types) and _is_shape(ctx, shapes):
        return _keyword_call(tensor_spec, [("shape", shapes), ("dtype", types)])
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
        elements = []
        for key, element in type_items.items():
            spec = _signature(ctx, element.value, shape_items[key].value, tensor_spec)
            if spec is None:
                return None
            elements.append(element.with_changes(value=spec))
        return types.with_changes(elements=elements)
    return None


def _string_keyed(node: cst.Dict) -> dict[str, cst.DictElement] | None:
    items: dict[str, cst.DictElement] = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
            return None
        items[element.key.evaluated_value] = element
    return items


RULES = (DispatchServerConfig(), WorkerServerConfig(), DATA_AUTOTUNE, FromGeneratorSignature())
