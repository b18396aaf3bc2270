"""What the tf.data service server rules share: the `DispatchServer(port)` /
`WorkerServer(port, dispatcher_address)` to config-tuple rewrite, and call-building helpers."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    bind_or_report,
    close_multiline_call,
    evaluation_order_kept,
    is_multiline,
    keyword_arg,
    leading_comment_lines,
    line_break,
    nested_multiline_call,
    rebuild_args,
    updated_values,
)
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import dotted_parts

SERVICE = "tensorflow.data.experimental.service"


_SPACED_COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_bool(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value in ("True", "False")


def keyword_call(func: cst.BaseExpression, arguments: list[tuple[str, cst.BaseExpression]]) -> cst.Call:
    args = [keyword_arg(name, value) for name, value in arguments]
    args = [arg.with_changes(comma=_SPACED_COMMA) for arg in args[:-1]] + args[-1:]
    return cst.Call(func, args)


_SAFE_OPERANDS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


def _grpc(ctx: RuleContext) -> cst.SimpleString:
    """`"grpc"`, or `'grpc'` in an f-string written with double quotes, whose replacement fields
    cannot hold that quote before Python 3.12."""
    inside = next((a for a in ctx.ancestors if isinstance(a, cst.FormattedString)), None)
    return cst.SimpleString("'grpc'" if inside is not None and '"' in inside.start else '"grpc"')


def _protocol_defaulted(config: cst.Call, grpc: cst.SimpleString) -> cst.Call:
    """`config` with a `protocol` that may be None kept TF 2.3's default: TF 2.3's servers read
    None as `"grpc"`, TF 2.4's configs pass it on (an empty protocol, which fails to start), so a
    value that is not a string written out becomes `value or "grpc"` (the literal `grpc`)."""
    args = list(config.args)
    at = next((i for i, arg in enumerate(args) if arg.keyword and arg.keyword.value == "protocol"), None)
    if at is None or isinstance(args[at].value, (cst.SimpleString, cst.ConcatenatedString)):
        return config
    value = args[at].value
    if not isinstance(value, _SAFE_OPERANDS):
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    or_grpc = cst.BooleanOperation(left=value, operator=cst.Or(), right=grpc)
    args[at] = args[at].with_changes(value=or_grpc)
    return config.with_changes(args=args)


def _named_as_config(node: cst.BaseExpression) -> bool:
    """Whether `node` is a name or attribute that says it holds a config (`config`, `self.cfg`)."""
    parts = dotted_parts(node)
    words = set(parts[-1].lower().split("_")) if parts else set()
    return bool(words & {"config", "cfg", "configuration"})


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

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != f"{SERVICE}.{self.server}":
            return updated
        if self._already_migrated(ctx, original):
            return updated
        message = (
            f"`{self.server}(...)` takes a `{self.config}` in TF 2.4: `{self.server}(config, start=True)`"
        )
        by_hand = f"{message}; rewrite the call by hand"
        how = (
            f"The old parameters are `{', '.join(self.old_params)}`: write `{self.server}({self.config}("
            f"{', '.join(f'{name}=...' for name in self.config_order)}), start=...)`, with keywords only."
        )
        bound = bind_or_report(ctx, original, self.old_params, f"{by_hand}\n{how}")
        if bound is None:
            return updated
        missing = [name for name in self.required if name not in bound]
        if missing:
            ctx.report(original, f"{by_hand}; the call passes no `{'`, `'.join(missing)}`.\n{how}")
            return updated
        config_func = self._config_name(ctx, original.func)
        if config_func is None:
            ctx.report(original, f"{by_hand}; this file has no way to name `{self.config}`.\n{how}")
            return updated
        new_values = updated_values(original, updated)
        names = [name for name in self.config_order if name in bound and not is_none(bound[name].value)]
        start = [new_values[bound["start"]]] if "start" in bound else []
        if not evaluation_order_kept(updated, [*(new_values[bound[name]] for name in names), *start]):
            names.sort(key=lambda name: original.args.index(bound[name]))  # in the call's order
            if not evaluation_order_kept(updated, [*(new_values[bound[name]] for name in names), *start]):
                ctx.report(
                    original,
                    f"{by_hand}; `start` would run after the config's arguments, where this call runs it "
                    f"before them, and both call functions.\n{how}",
                )
                return updated
        config_args = [(name, new_values[bound[name]]) for name in names]
        if is_multiline(original):
            replacement = self._multiline(updated, bound, names, config_func, original, _grpc(ctx))
        else:
            new_args: list[tuple[str | None, cst.BaseExpression]] = [
                (None, _protocol_defaulted(keyword_call(config_func, config_args), _grpc(ctx)))
            ]
            if "start" in bound:
                new_args.append(("start", new_values[bound["start"]]))
            replacement = updated.with_changes(args=rebuild_args(updated.args, new_args))
        return (
            ctx.report(
                original,
                f"{message}: pass the settings as `{self.config}` keywords.",
                replacement=replacement,
            )
            or updated
        )

    def _multiline(
        self,
        updated: cst.Call,
        bound: dict[str, cst.Arg],
        names: list[str],
        config_func: cst.BaseExpression,
        original: cst.Call,
        grpc: cst.SimpleString,
    ) -> cst.Call:
        """The rewrite of a call written over several lines: the config call is laid out one
        argument per line too (the `bound` arguments `names`, in that order), each argument keeping
        its comments; `grpc` is the literal a protocol that may be None defaults to."""
        updated_args = {o: u for o, u in zip(original.args, updated.args, strict=True)}
        moved = [(name, updated_args[bound[name]]) for name in names]
        before = updated.whitespace_before_args
        indent = before.last_line.value if isinstance(before, cst.ParenthesizedWhitespace) else ""
        config = _protocol_defaulted(nested_multiline_call(config_func, moved, updated), grpc)
        leading = leading_comment_lines(updated)
        if isinstance(before, cst.ParenthesizedWhitespace):  # its comment lines now precede their argument
            updated = updated.with_changes(whitespace_before_args=before.with_changes(empty_lines=[]))
        if "start" not in bound:
            return updated.with_changes(args=close_multiline_call([cst.Arg(config)], updated))
        start = updated_args[bound["start"]]
        comments = leading[start]
        args = [
            cst.Arg(config, comma=cst.Comma(whitespace_after=line_break(indent, comments))),
            keyword_arg("start", start.value, like=start),
        ]
        return updated.with_changes(args=close_multiline_call(args, updated))

    def _already_migrated(self, ctx: RuleContext, call: cst.Call) -> bool:
        """TF 2.4 style: `config=`, a config built in the call, no arguments, a first argument named
        as a config (`DispatchServer(config)`), or a value that is not a port in a file that already
        uses the config class."""
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
        if positional and not first_is_port and _named_as_config(positional[0]):
            return True  # `DispatchServer(config)`, `DispatchServer(self.dispatcher_config)`
        return bool(positional) and not first_is_port and self.config in ctx.source

    def _config_name(self, ctx: RuleContext, func: cst.BaseExpression) -> cst.BaseExpression | None:
        """The config class reached as the file reached the server class: through the same module
        path or alias, or added to the same `from ... import` statement."""
        if isinstance(func, cst.Name):
            name = ctx.import_alongside(func, self.config)
            if name is not None:
                return name
            return ctx.spell(f"{SERVICE}.{self.config}")
        return ctx.spell(f"{SERVICE}.{self.config}", like=func)
