"""A source's text as rules and the engine read it: where its lines start, and Python's own
parse of it."""

from __future__ import annotations

import ast
import re
import warnings


def parse_with_python(source: str) -> ast.Module:
    """`ast.parse`, silent: warnings about the user's code (invalid escapes) are not ours to raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source)


_NEWLINE = re.compile(r"\r\n?|\n")  # the line ends of Python's tokenizer (not str.splitlines's)


def line_starts(text: str) -> list[int]:
    """The offset of each line of `text`, and `len(text)` last when it ends with a line end."""
    return [0, *(match.end() for match in _NEWLINE.finditer(text))]
