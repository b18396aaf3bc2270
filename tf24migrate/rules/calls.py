"""Helpers for structural rules that change a call's arguments: bind them to a signature, and
rebuild an argument list that keeps the user's commas, line breaks and comments."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence

import libcst as cst
from libcst._nodes.internal import CodegenState

from tf24migrate.rules.context import RuleContext

_NO_SPACE = cst.SimpleWhitespace("")
_NO_RECORD = contextlib.nullcontext()


class UnboundArguments(ValueError):
    """The call's arguments cannot be matched to the signature statically."""


def bind_arguments(args: Sequence[cst.Arg], params: Sequence[str]) -> dict[str, cst.Arg]:
    """`{parameter: Arg}` as Python would bind `args` to `params` (all positional-or-keyword).

    Raises `UnboundArguments` for `*args` / `**kwargs`, too many positional arguments, an unknown
    keyword, or a parameter given twice.
    """
    bound: dict[str, cst.Arg] = {}
    position = 0
    for arg in args:
        if arg.star:
            raise UnboundArguments(
                f"the call passes `{arg.star}` arguments, which cannot be matched statically"
            )
        if arg.keyword is None:
            if position >= len(params):
                raise UnboundArguments(f"the call passes more than {len(params)} positional arguments")
            name = params[position]
            position += 1
        else:
            name = arg.keyword.value
            if name not in params:
                raise UnboundArguments(f"the call passes an unknown keyword `{name}=`")
        if name in bound:
            raise UnboundArguments(f"the call passes `{name}` twice")
        bound[name] = arg
    return bound


def keyword_arg(name: str, value: cst.BaseExpression, like: cst.Arg | None = None) -> cst.Arg:
    """`name=value`, keeping the whitespace and comma of `like` when given."""
    if like is not None and like.keyword is not None:
        return like.with_changes(keyword=cst.Name(name), value=value)
    equal = cst.AssignEqual(whitespace_before=_NO_SPACE, whitespace_after=_NO_SPACE)
    if like is not None:
        return like.with_changes(keyword=cst.Name(name), value=value, equal=equal)
    return cst.Arg(keyword=cst.Name(name), value=value, equal=equal)


def rebuild_args(
    slots: Sequence[cst.Arg], new: Sequence[tuple[str | None, cst.BaseExpression]]
) -> list[cst.Arg]:
    """Arguments `new` (keyword or None, value), laid into the user's argument `slots` in order.

    Each new argument takes the comma and whitespace of the slot at its index, so line breaks and
    comments between arguments survive. With as many new arguments as slots or more, the last takes
    the ending of the user's last argument (its comma, comment and the layout before `)`), and
    arguments beyond the slots are separated as the user's are: `, `, or a line break at the same
    indentation in a call written over lines. With fewer, the slots left over are removed as
    `keep_arguments` removes arguments (their lines and comments go, the others' stay).
    """
    if len(new) < len(slots):
        kept = keep_arguments(cst.Call(cst.Name("f"), slots), slots[: len(new)]).args
        return [_lay(slot, keyword, value) for slot, (keyword, value) in zip(kept, new, strict=True)]
    result: list[cst.Arg] = []
    separator = _separator(slots)
    for index, (keyword, value) in enumerate(new):
        last = index == len(new) - 1
        if last and slots:
            slot = slots[-1]
        elif index < len(slots) - 1:
            slot = slots[index].with_changes(whitespace_after_arg=_NO_SPACE)
        else:
            slot = None
        arg = _lay(slot, keyword, value)
        if slot is None and not last:
            arg = arg.with_changes(comma=separator)
        result.append(arg)
    return result


def _lay(slot: cst.Arg | None, keyword: str | None, value: cst.BaseExpression) -> cst.Arg:
    """An argument `keyword=value` (or positional) in the place and layout of `slot`."""
    if keyword is not None:
        return keyword_arg(keyword, value, like=slot)
    if slot is None:
        return cst.Arg(value)
    return slot.with_changes(value=value, keyword=None, equal=cst.MaybeSentinel.DEFAULT)


def _separator(slots: Sequence[cst.Arg]) -> cst.Comma:
    """The comma between the user's arguments, without comments: `, ` or a line break."""
    for slot in slots:
        if isinstance(slot.comma, cst.Comma) and isinstance(
            slot.comma.whitespace_after, cst.ParenthesizedWhitespace
        ):
            return cst.Comma(whitespace_after=line_break(slot.comma.whitespace_after.last_line.value))
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _newline_then(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), indent=False, last_line=cst.SimpleWhitespace(indent)
    )


class _PlainState(CodegenState):
    """LibCST's code generation, less the context manager its state makes for each node to record
    positions (`engine.positions` records them for the few nodes findings point at): about a
    third of the time of generating a node's code."""

    def record_syntactic_position(self, node: cst.CSTNode, **_: object):
        return _NO_RECORD


_CONTINUATION = re.compile(r"\\\r?\n[ \t]*")


def code_for(node: cst.CSTNode) -> str:
    """The source code of a node on its own (as `cst.Module([]).code_for_node(node)`)."""
    state = _PlainState(default_indent="    ", default_newline="\n")
    node._codegen(state)
    return "".join(state.tokens)


def abbreviated(node: cst.CSTNode, limit: int = 40) -> str:
    """The code of a node on one line, cut to `limit` characters with `...`, for messages (a line
    continuation and the indentation after it dropped: `x.\\` then `op` is `x.op`)."""
    text = " ".join(_CONTINUATION.sub("", code_for(node)).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def split_call(call: cst.Call, indent: str, limit: int, unit: str = "    ") -> cst.Call:
    """`call` laid out over several lines as black would, for a call starting on a line indented
    by `indent`: first all arguments on one line of their own, else one argument per line with a
    trailing comma, splitting a nested call argument the same way when its line is still too long.
    """
    inner = indent + unit
    args = [
        arg.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=_NO_SPACE) for arg in call.args
    ]
    if not args:
        return call
    if len(inner) + len(", ".join(code_for(arg) for arg in args)) <= limit:
        spaced = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        laid_out = [arg.with_changes(comma=spaced) for arg in args[:-1]]
        laid_out.append(args[-1].with_changes(whitespace_after_arg=_newline_then(indent)))
        return call.with_changes(whitespace_before_args=_newline_then(inner), args=laid_out)
    laid_out = []
    for index, arg in enumerate(args):
        if isinstance(arg.value, cst.Call) and len(inner) + len(code_for(arg)) + 1 > limit:
            arg = arg.with_changes(value=split_call(arg.value, inner, limit, unit))
        last = index == len(args) - 1
        laid_out.append(
            arg.with_changes(comma=cst.Comma(whitespace_after=_newline_then(indent if last else inner)))
        )
    return call.with_changes(whitespace_before_args=_newline_then(inner), args=laid_out)


def _after(arg: cst.Arg) -> cst.BaseParenthesizableWhitespace:
    """What follows an argument: its comma's whitespace, or the whitespace before `)`."""
    return arg.comma.whitespace_after if isinstance(arg.comma, cst.Comma) else arg.whitespace_after_arg


def is_multiline(call: cst.Call) -> bool:
    """Whether the user wrote the call's arguments over several lines."""
    return "\n" in code_for(call.with_changes(func=cst.Name("f")))


def leading_comment_lines(call: cst.Call) -> dict[cst.Arg, list[cst.EmptyLine]]:
    """`{arg: comment lines written on their own lines just before it}` for each argument."""
    result: dict[cst.Arg, list[cst.EmptyLine]] = {}
    previous = call.whitespace_before_args
    for arg in call.args:
        result[arg] = list(previous.empty_lines) if isinstance(previous, cst.ParenthesizedWhitespace) else []
        previous = _after(arg)
    return result


def line_break(
    indent: str,
    comment_lines: Sequence[cst.EmptyLine] = (),
    after: cst.BaseParenthesizableWhitespace | None = None,
) -> cst.ParenthesizedWhitespace:
    """A line break keeping the trailing comment of `after` (an argument's own), then
    `comment_lines`, then the next line indented by `indent` (relative to the block)."""
    first_line = (
        after.first_line if isinstance(after, cst.ParenthesizedWhitespace) else cst.TrailingWhitespace()
    )
    return cst.ParenthesizedWhitespace(
        first_line=first_line,
        empty_lines=list(comment_lines),
        indent=True,
        last_line=cst.SimpleWhitespace(indent),
    )


def nested_multiline_call(
    func: cst.BaseExpression, moved: Sequence[tuple[str, cst.Arg]], outer: cst.Call, unit: str = "    "
) -> cst.Call:
    """A call of `func` with the user's arguments `moved` (new keyword, Arg of `outer`), for use
    as an argument of the multi-line call `outer`: one argument per line, one level deeper, each
    keeping its trailing comment and the comment lines written above it."""
    before = outer.whitespace_before_args
    indent = before.last_line.value if isinstance(before, cst.ParenthesizedWhitespace) else unit
    leading = leading_comment_lines(outer)
    args = []
    for index, (keyword, arg) in enumerate(moved):
        if index + 1 < len(moved):
            whitespace = line_break(indent + unit, _indented(leading[moved[index + 1][1]], unit), _after(arg))
        else:
            whitespace = line_break(indent, (), _after(arg))
        args.append(
            keyword_arg(keyword, arg.value).with_changes(comma=cst.Comma(whitespace_after=whitespace))
        )
    first_comments = _indented(leading[moved[0][1]], unit) if moved else []
    return cst.Call(func, args, whitespace_before_args=line_break(indent + unit, first_comments))


def _indented(lines: Sequence[cst.EmptyLine], unit: str) -> list[cst.EmptyLine]:
    return [
        line.with_changes(whitespace=cst.SimpleWhitespace(line.whitespace.value + unit)) for line in lines
    ]


def close_multiline_call(args: list[cst.Arg], outer: cst.Call) -> list[cst.Arg]:
    """`args` with the last one ending as the user's last argument of `outer` did (comment
    lines, line break and indentation before `)`), keeping its own trailing comment."""
    if not args or not outer.args:
        return args
    closing = _after(outer.args[-1])
    if not isinstance(closing, cst.ParenthesizedWhitespace):
        return args
    last = args[-1]
    whitespace = line_break(closing.last_line.value, closing.empty_lines, _after(last))
    args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=whitespace), whitespace_after_arg=_NO_SPACE)
    return args


def keep_arguments(call: cst.Call, kept: Sequence[cst.Arg]) -> cst.Call:
    """`call` with only the arguments `kept` (of `call.args`), laid out as a person would.

    A comment belongs to its line: an argument written on a line of its own goes with that line
    and its trailing comment; an argument sharing its line with another leaves the line, and its
    comment, to it. Comment lines written between arguments stay. The last argument ends as the
    call's did: a trailing comma stays only in a call closed on a line of its own. A call left with
    one argument is written on one line as `lone_argument_on_one_line` says.
    """
    keep = {arg for arg in kept}
    args: list[cst.Arg] = []
    before_args = call.whitespace_before_args
    gap = call.whitespace_before_args  # the whitespace before the next kept argument or `)`
    for index, arg in enumerate(call.args):
        closing = index == len(call.args) - 1
        if arg in keep:
            if args:
                args[-1] = _followed_by(args[-1], gap)
            else:
                before_args = gap
            args.append(arg)
            gap = _after(arg)
        else:
            gap = _without_line(gap, _after(arg), closing)
    if not args:
        return call.with_changes(args=[], whitespace_before_args=_closing(gap))
    trailing_comma = isinstance(call.args[-1].comma, cst.Comma) and isinstance(
        gap, cst.ParenthesizedWhitespace
    )
    last = args[-1]
    if trailing_comma:
        comma = last.comma if isinstance(last.comma, cst.Comma) else cst.Comma()
        args[-1] = last.with_changes(comma=comma.with_changes(whitespace_after=gap))
    else:
        args[-1] = last.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=gap)
    return lone_argument_on_one_line(call.with_changes(args=args, whitespace_before_args=before_args))


def lone_argument_on_one_line(call: cst.Call) -> cst.Call:
    """`call` on one line when an argument was removed from it and one is left, without a comment
    or a trailing comma in the call (`Policy('mixed_float16')`, not `Policy(\n    'mixed_float16')`)."""
    if len(call.args) != 1 or isinstance(call.args[0].comma, cst.Comma) or "#" in code_for(_bare(call)):
        return call
    arg = call.args[0].with_changes(whitespace_after_arg=_NO_SPACE)
    return call.with_changes(args=[arg], whitespace_before_args=_NO_SPACE)


def _followed_by(arg: cst.Arg, whitespace: cst.BaseParenthesizableWhitespace) -> cst.Arg:
    """`arg` with a comma followed by `whitespace` (the next argument follows)."""
    comma = arg.comma if isinstance(arg.comma, cst.Comma) else cst.Comma()
    return arg.with_changes(comma=comma.with_changes(whitespace_after=whitespace))


def _without_line(
    before: cst.BaseParenthesizableWhitespace, after: cst.BaseParenthesizableWhitespace, closing: bool
) -> cst.BaseParenthesizableWhitespace:
    """The whitespace left where an argument between `before` and `after` was removed; `closing`
    when `)` follows it."""
    own_line_before = isinstance(before, cst.ParenthesizedWhitespace)
    if isinstance(before, cst.ParenthesizedWhitespace) and isinstance(after, cst.ParenthesizedWhitespace):
        # its line goes, with the comment on it
        return before.with_changes(
            empty_lines=[*before.empty_lines, *after.empty_lines],
            indent=after.indent,
            last_line=after.last_line,
        )
    if isinstance(after, cst.ParenthesizedWhitespace) or (closing and not own_line_before):
        return after  # the line stays with what was before the argument, and keeps its comment
    if (
        isinstance(before, cst.ParenthesizedWhitespace) and closing
    ):  # `)` was on the argument's line: it moves up, or to the left
        if before.first_line.comment is None and not before.empty_lines:
            return _NO_SPACE
        return before.with_changes(indent=True, last_line=_NO_SPACE)
    return before  # the next argument takes the removed one's place on its line


def _closing(gap: cst.BaseParenthesizableWhitespace) -> cst.BaseParenthesizableWhitespace:
    """The whitespace in `f()` once every argument is gone: none unless it holds a comment."""
    return gap if "#" in code_for(cst.Call(cst.Name("f"), [], whitespace_before_args=gap)) else _NO_SPACE


def _bare(call: cst.Call) -> cst.Call:
    return call.with_changes(func=cst.Name("f"))


def bind_or_report(
    ctx: RuleContext, call: cst.Call, params: Sequence[str], message: str
) -> dict[str, cst.Arg] | None:
    """`bind_arguments` of `call`, or None after reporting `message` with the reason at the call
    (a report-only finding: the handler leaves the call as it is)."""
    try:
        return bind_arguments(call.args, params)
    except UnboundArguments as problem:
        head, newline, why = message.partition("\n")  # the problem ends the first line
        ctx.report(call, f"{head}; {problem}.{newline}{why}")
        return None


_EFFECTS = (cst.Call, cst.Await, cst.Yield, cst.NamedExpr)


def holds(node: cst.CSTNode, kinds: tuple[type[cst.CSTNode], ...], *, in_lambdas: bool = True) -> bool:
    """Whether `node` is, or holds, a node of one of `kinds`; not counting what the body of a
    lambda holds without `in_lambdas` (code that runs only when the lambda is called)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, kinds):
            return True
        if in_lambdas or not isinstance(current, cst.Lambda):
            stack.extend(current.children)
    return False


def may_have_effects(node: cst.CSTNode) -> bool:
    """Whether evaluating `node` may do more than read values: it holds a call, an `await`, a
    `yield` or an assignment expression (`:=`), outside the body of a lambda."""
    return holds(node, _EFFECTS, in_lambdas=False)


def evaluation_order_kept(call: cst.Call, values: Sequence[cst.BaseExpression]) -> bool:
    """Whether `values`, nodes of `call`'s arguments in the order a rewrite writes them, evaluate
    those that may have effects in the order `call` evaluates them (its arguments left to right):
    `f(b=g(), a=h())` rewritten as `f2(h(), g())` would call `h` first."""
    position: dict[int, int] = {}
    stack: list[cst.CSTNode] = list(reversed(call.args))
    while stack:  # depth first, left to right: the order the nodes' code is written in
        current = stack.pop()
        position.setdefault(id(current), len(position))
        stack.extend(reversed(current.children))
    order = [position[id(value)] for value in values if id(value) in position and may_have_effects(value)]
    return order == sorted(order)


def updated_values(original: cst.Call, updated: cst.Call) -> dict[cst.Arg, cst.BaseExpression]:
    """`{original Arg: its value in the updated tree}`, for rules that bind the original call."""
    return {o: u.value for o, u in zip(original.args, updated.args, strict=True)}


def argument_values(call: cst.Call, position: int, keyword: str) -> list[cst.BaseExpression]:
    """What `call` gives the parameter at `position` (passed by position, no `*args` there) or named
    `keyword`: one value, none, or two where the call names it both ways (Python refuses that)."""
    given = [a.value for a in call.args[position : position + 1] if a.keyword is None and not a.star]
    return given + [a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword]


def indexed_result(subscript: cst.Subscript) -> tuple[cst.Call, cst.BaseExpression] | None:
    """`(call, index)` when `subscript` indexes, once, what a call without arguments returns
    (`opt.get_config()["loss_scale"]`, `list_logical_devices()[1]`), else None."""
    call = subscript.value
    if not isinstance(call, cst.Call) or call.args or len(subscript.slice) != 1:
        return None
    element = subscript.slice[0].slice
    return (call, element.value) if isinstance(element, cst.Index) else None
