"""The layout around a call a rule changed: continuation lines kept aligned with its opening
bracket, and lines a rewrite made too long wrapped.

`lay_out_call` runs after the rules' handlers on every call whose code changed:

- When the callee's name got shorter or longer (`strategy.experimental_run_v2(` → `strategy.run(`)
  and the user aligned the continuation lines with the opening bracket (every continuation line
  of the call starts to the right of it), those lines move with the bracket. Hanging indents
  (a continuation line left of the bracket) are left alone.
- When the rewrite made the call longer and its line no longer fits the file's line length (its
  longest line, at least 79: `MigrationTransformer.line_length`), the call is wrapped by
  `calls.split_call` as black would. A call written on one line is wrapped as a whole, from the
  outermost call of its line; in a call written over lines, a line of arguments grown too long
  is wrapped (its one call argument split in place, or the whole call when the line holds more).
  A call holding a comment is never re-wrapped (its comments would have no place).
"""

from __future__ import annotations

import libcst as cst

from tf24migrate.rules.calls import code_for, split_call
from tf24migrate.rules.context import RuleContext

_STATEMENTS = (cst.SimpleStatementLine, cst.SimpleStatementSuite, cst.BaseCompoundStatement)


def lay_out_call(ctx: RuleContext, original: cst.Call, result: cst.CSTNode) -> cst.CSTNode:
    """`result` (what the rules made of `original`) aligned and wrapped; see the module docstring."""
    if result is original or type(result) is not cst.Call:
        return result
    if result.func is not original.func:
        result = _realigned(ctx, original, result)
    return _wrapped(ctx, original, result)


def _realigned(ctx: RuleContext, original: cst.Call, result: cst.Call) -> cst.Call:
    old_func, new_func = code_for(original.func), code_for(result.func)
    delta = len(new_func) - len(old_func)
    if delta == 0 or "\n" in old_func or not isinstance(original.whitespace_after_func, cst.SimpleWhitespace):
        return result
    if "\n" not in code_for(original):
        return result
    lines, span = ctx.node_lines(original)
    bracket = span.column - 1 + len(old_func) + len(original.whitespace_after_func.value)
    continued = [line for line in lines[1:] if line.strip()]
    if any("\t" in line[: _indent(line)] or _indent(line) <= bracket for line in continued):
        return result  # a hanging indent, or tabs
    shift = _Shift(delta)
    return result.with_changes(
        whitespace_before_args=result.whitespace_before_args.visit(shift),
        args=[arg.visit(shift) for arg in result.args],
    )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


class _Shift(cst.CSTTransformer):
    """Moves every continuation line (and comment line) by `delta` columns."""

    def __init__(self, delta: int) -> None:
        super().__init__()
        self.delta = delta

    def _moved(self, whitespace: cst.SimpleWhitespace) -> cst.SimpleWhitespace:
        value = whitespace.value
        if self.delta > 0:
            return cst.SimpleWhitespace(value + " " * self.delta)
        return cst.SimpleWhitespace(value[: max(0, len(value) + self.delta)])

    def leave_ParenthesizedWhitespace(self, original, updated):
        return updated.with_changes(last_line=self._moved(updated.last_line))

    def leave_EmptyLine(self, original, updated):
        if updated.comment is None:
            return updated
        return updated.with_changes(whitespace=self._moved(updated.whitespace))


def _wrapped(ctx: RuleContext, original: cst.Call, result: cst.Call) -> cst.Call:
    code = code_for(result)
    if len(code) <= len(code_for(original)) or "#" in code:
        return result
    limit = ctx.line_length
    if "\n" not in code:
        before, after = ctx.line_around(original)
        if len(before) + len(code) + len(after) <= limit or _in_call_on_its_line(ctx):
            return result
        if len(before) + len(code_for(result.func)) + 1 > limit:
            return result  # its first line would still be too long: wrapping would not help
        return split_call(result, before[: _indent(before)], limit)
    lines, _ = ctx.node_lines(original)
    block = lines[0][: _indent(lines[0])]
    for first, last, indent in _argument_lines(result, block):
        codes = [code_for(_bare(arg)) for arg in result.args[first : last + 1]]
        if len(indent) + len(", ".join(codes)) + 1 <= limit or any("\n" in code for code in codes):
            continue
        if first != last:
            return split_call(result, block, limit)
        value = result.args[first].value
        if isinstance(value, cst.Call):
            args = list(result.args)
            args[first] = args[first].with_changes(value=split_call(value, indent, limit))
            result = result.with_changes(args=args)
    return result


def _bare(arg: cst.Arg) -> cst.Arg:
    """`arg` without its comma and what follows."""
    return arg.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=cst.SimpleWhitespace(""))


def _in_call_on_its_line(ctx: RuleContext) -> bool:
    """Whether the call being left is inside another call written on one line (which wraps it)."""
    for ancestor in ctx.ancestors:
        if isinstance(ancestor, _STATEMENTS):
            return False
        if type(ancestor) is cst.Call and "\n" not in code_for(ancestor):
            return True
    return False


def _argument_lines(call: cst.Call, block: str) -> list[tuple[int, int, str]]:
    """`(first, last, indentation)` of each line of `call`'s arguments that starts with one."""
    lines: list[tuple[int, int, str]] = []
    before = call.whitespace_before_args
    for index, arg in enumerate(call.args):
        if isinstance(before, cst.ParenthesizedWhitespace):
            indent = (block if before.indent else "") + before.last_line.value
            lines.append((index, index, indent))
        elif lines:
            lines[-1] = (lines[-1][0], index, lines[-1][2])
        before = arg.comma.whitespace_after if isinstance(arg.comma, cst.Comma) else arg.whitespace_after_arg
    return lines
