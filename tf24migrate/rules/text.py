"""A source's text as rules and the engine read it: where its lines start, and Python's own
parse of it."""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator

# The last source of some size parsed, and its tree: the engine's stages (TF 1 evidence, doctests,
# the plan) read the same source, which is parsed once. Trees are never modified.
_last_parsed: tuple[str, ast.Module] | None = None
_MEMO_FROM = 2000  # characters: below this, parsing costs about what comparing costs


def parse_with_python(source: str) -> ast.Module:
    """`ast.parse`, silent: warnings about the user's code (invalid escapes) are not ours to raise."""
    global _last_parsed
    if _last_parsed is not None and _last_parsed[0] == source:
        return _last_parsed[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    if len(source) >= _MEMO_FROM:
        _last_parsed = (source, tree)
    return tree


_NEWLINE = re.compile(r"\r\n?|\n")  # the line ends of Python's tokenizer (not str.splitlines's)


def line_starts(text: str) -> list[int]:
    """The offset of each line of `text`, and `len(text)` last when it ends with a line end."""
    return [0, *(match.end() for match in _NEWLINE.finditer(text))]


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of `body`, nested ones included, in no order: what holds imports, classes,
    functions and docstrings, without visiting the expressions (most of a tree)."""
    stack = list(body)
    while stack:
        statement = stack.pop()
        yield statement
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(statement, name, None) or ())
