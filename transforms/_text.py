"""What the rules that read values share: a literal's value, the value a name was assigned, the
links of a comparison, and whether a string is prose.

Only a few rules read strings (device names, environment variable names, C symbol names, tensor
names). Even they must not fire on prose: docstrings and other bare string statements, text
printed or logged, exception messages and `help=` texts. Comments are never seen by any rule.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import dotted_parts

# Calls whose string arguments are text for people: print, logging, warnings, exceptions.
_PROSE_CALLS = {
    "print",
    "debug",
    "info",
    "warning",
    "warn",
    "error",
    "critical",
    "exception",
    "fatal",
    "log",
    "vlog",
    "write",
}
_STATEMENT = (cst.SimpleStatementLine, cst.BaseCompoundStatement)
_STRINGS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def literal_value(node: cst.CSTNode) -> str | None:
    """The value of a plain string literal (or an implicit concatenation of them); else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        if isinstance(value, bytes):
            return value.decode("latin-1")
        return value
    return None


def links(
    comparison: cst.Comparison,
) -> Iterator[tuple[cst.BaseCompOp, cst.BaseExpression, cst.BaseExpression]]:
    """Each comparison of a chain as `(operator, left, right)`: `a < b == c` is `a < b`, then `b == c`."""
    left = comparison.left
    for target in comparison.comparisons:
        yield target.operator, left, target.comparator
        left = target.comparator


def _is_prose_call(call: cst.Call) -> bool:
    parts = dotted_parts(call.func)
    if not parts:
        return False
    last = parts[-1]
    return last in _PROSE_CALLS or last.endswith(("Error", "Exception", "Warning"))


def is_prose(ancestors: list[cst.CSTNode], node: cst.CSTNode) -> bool:
    """Whether the string `node`, inside `ancestors` (innermost first), is text for people."""
    child = node
    for parent in ancestors:
        if isinstance(parent, cst.Expr) and parent.value is child and isinstance(child, _STRINGS):
            return True  # a docstring, or any other string standing alone as a statement
        if isinstance(parent, cst.Arg) and parent.keyword is not None and parent.keyword.value == "help":
            return True
        if isinstance(parent, cst.Call) and child is not parent.func and _is_prose_call(parent):
            return True
        if isinstance(parent, _STATEMENT):
            return False
        child = parent
    return False


def assigned_value(ctx: RuleContext, name: cst.Name) -> cst.BaseExpression | None:
    """The value of `name = value` (or `name: T = value`) when that is how `name` is bound here."""
    if not ctx.is_reference(name):
        return None
    binding = ctx.binding(name.value)
    bound_by = binding.node if binding is not None and not binding.is_import else None
    if isinstance(bound_by, (cst.Assign, cst.AnnAssign)):
        return bound_by.value
    return None
