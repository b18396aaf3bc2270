"""Docstrings and their doctest examples, found in a source's text: for the engine, which migrates
the examples (`tf24migrate.engine.doctests`), and for rules that read prose, which leave them alone.

A docstring is the string literal that is the first statement of a module, class or function; its
examples are each `>>> ` line and the `... ` lines after it at the same indentation.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from tf24migrate.rules.text import line_starts, statements

_PROMPT = re.compile(r"([ \t]*)>>>(?: |$)")
_LINE = re.compile(r"([^\r\n]*)(\r\n?|\n|$)")
_LITERAL = re.compile(r"([rRuU]?)('''|\"\"\"|'|\")")


@dataclass(frozen=True)
class Docstring:
    """A docstring literal whose text is its value: where it starts, and its body's lines."""

    start: int  # offset of the literal in the source
    end: int
    line: int  # the file line of its first line
    column: int  # 0-based character column where its body starts on that line
    opening: str  # prefix and quotes
    quote: str
    raw: bool
    lines: tuple[tuple[str, str], ...]  # the body's lines: (text, line end)
    spliceable: bool = True  # its text is its value: no escapes, no implicit concatenation

    def text(self, lines: list[tuple[str, str]]) -> str:
        return self.opening + "".join(t + e for t, e in lines) + self.quote


@dataclass(frozen=True)
class Example:
    """One example: per line of its code, the body line it is on and its prompt (`    >>> `)."""

    lines: tuple[tuple[int, str], ...]


def docstring_nodes(tree: ast.Module, *, module: bool = True) -> Iterator[ast.Constant]:
    """The docstring constants of the module (if `module`: `tree` is not a later chunk of it) and
    of every class and function in it."""
    for node in (*((tree,) if module else ()), *statements(tree.body)):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) or (
            module and isinstance(node, ast.Module)
        ):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, (ast.Constant, ast.JoinedStr)):
                yield first.value  # type: ignore[misc]


def docstrings(source: str, trees: Iterable[ast.Module], marker: str = ">>>") -> list[Docstring]:
    """The plain-string docstrings of `source` holding `marker`, in file order. `trees`: Python's
    `ast` of `source`, in one module or in chunks (`text.python_chunks`)."""
    starts = line_starts(source)
    found = []
    nodes = (node for index, tree in enumerate(trees) for node in docstring_nodes(tree, module=index == 0))
    for node in nodes:
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or marker not in node.value:
            continue  # f-strings and bytes are never spliced
        start = _offset(source, starts, node.lineno, node.col_offset)
        end = _offset(source, starts, node.end_lineno or node.lineno, node.end_col_offset or 0)
        literal = source[start:end]
        match = _LITERAL.match(literal)
        if match is None or not literal.endswith(match.group(2)):
            continue
        quote = match.group(2)
        body = literal[match.end() : len(literal) - len(quote)]
        raw = match.group(1) in ("r", "R")
        spliceable = not (quote in body or quote[0] == body[-1:] or ("\\" in body and not raw))
        column = start - starts[node.lineno - 1] + match.end()
        lines = tuple((m.group(1), m.group(2)) for m in _LINE.finditer(body) if m.group(0) or m.start() == 0)
        found.append(
            Docstring(start, end, node.lineno, column, match.group(0), quote, raw, lines, spliceable)
        )
    return sorted(found, key=lambda d: d.start)


def _offset(source: str, starts: Sequence[int], line: int, byte_column: int) -> int:
    """The offset of `ast`'s (line, UTF-8 byte column) in `source`."""
    begin = starts[line - 1]
    text = source[begin : starts[line] if line < len(starts) else len(source)]
    return begin + len(text.encode("utf-8")[:byte_column].decode("utf-8", "replace"))


def examples(lines: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> list[Example]:
    """The examples in a docstring's lines, as doctest reads them."""
    found = []
    index = 0
    while index < len(lines):
        match = _PROMPT.match(lines[index][0])
        if match is None:
            index += 1
            continue
        indent = match.group(1)
        code = [(index, lines[index][0][: match.end()])]
        index += 1
        continuation = re.compile(re.escape(indent) + r"\.\.\.(?: |$)")
        while index < len(lines) and (more := continuation.match(lines[index][0])):
            code.append((index, lines[index][0][: more.end()]))
            index += 1
        found.append(Example(tuple(code)))
    return found


def example_and_output_lines(lines) -> set[int]:
    """The indices of the lines that are examples or their expected output (up to a blank line
    or the next prompt), which prose rules leave alone."""
    taken: set[int] = set()
    for example in examples(lines):
        taken.update(i for i, _ in example.lines)
        index = example.lines[-1][0] + 1
        while index < len(lines) and lines[index][0].strip() and not _PROMPT.match(lines[index][0]):
            taken.add(index)
            index += 1
    return taken
