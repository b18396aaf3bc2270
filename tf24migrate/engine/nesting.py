"""How deeply a source nests, bounded before LibCST sees it.

LibCST's native parser crashes the process (a segmentation fault) on very deep nesting, such as a
`+` chain of 10,000 terms, which Python's own parser accepts; well before that, the recursive passes
over its tree raise `RecursionError`. So a source whose syntax tree (Python's `ast`, already built
for the statement plan) nests deeper than `NESTING_LIMIT` levels is refused with a message, and
never handed to LibCST. Real code nests a few dozen levels at most; Python itself refuses more than
200 nested brackets.

The walk is cheap: a node's subtree cannot nest deeper than its text is long (every level adds a
character, give or take a few for nodes that share their parent's text), so only nodes longer than
the depth still allowed are visited.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

NESTING_LIMIT = 400
_SAME_TEXT_SLACK = 8  # levels that share their parent's text (`Expr(Call(...))`, ...)


def too_deep(tree: ast.Module, line_starts: Sequence[int], lines_before: int = 0) -> int | None:
    """The line of the first statement of `tree` nesting deeper than `NESTING_LIMIT`, or None.
    `line_starts[n]` is the offset of line n + 1 (for the length of a node's text); line 1 of
    `tree` is line `lines_before + 1` of the text (`text.python_chunks_with_offsets`)."""
    before = lines_before - 1

    def length(node: Any) -> int:  # an ast node with a position: they share no type
        return (line_starts[before + node.end_lineno] + node.end_col_offset) - (
            line_starts[before + node.lineno] + node.col_offset
        )

    for statement in tree.body:
        stack: list[tuple[ast.AST, int]] = [(statement, 1)]
        while stack:
            node, depth = stack.pop()
            if depth > NESTING_LIMIT:
                return lines_before + statement.lineno
            for child in ast.iter_child_nodes(node):
                if getattr(child, "end_lineno", None) is None:
                    continue  # contexts and operators: leaves without text
                if depth + length(child) + _SAME_TEXT_SLACK > NESTING_LIMIT:
                    stack.append((child, depth + 1))
    return None
