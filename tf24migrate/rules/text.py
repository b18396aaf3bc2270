"""A source's text as rules and the engine read it: where its lines start, and Python's own
parse of it, whole (`parse_with_python`) or, for a long source, in chunks of top-level statements
(`python_chunks`), so that no more than one chunk's `ast` (about 100 times its text) is alive."""

from __future__ import annotations

import ast
import functools
import re
import warnings
from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate
from typing import TypeVar

_T = TypeVar("_T")
# The last source of some size parsed, and its tree: the engine's stages (TF 1 evidence, doctests,
# the plan) read the same source, which is parsed once. Trees are never modified.
_last_parsed: tuple[str, ast.Module] | None = None
_MEMO_FROM = 2000  # characters: below this, parsing costs about what comparing costs
_CHUNK = 1 << 16  # characters: a source of two chunks or more is parsed in chunks of this size
_MAX_CHUNKS = 64  # at most about this many: each chunk's text is preceded by a newline per line before it
_SMALL_CHUNK = 1 << 14  # characters: the chunks of `python_chunks_with_offsets`, whatever the source's size
# Where a top-level statement can start: a line at column 0 opening with a character that can start
# one, not with a clause of the statement before it.
_STATEMENT_START = re.compile(r"(?<=[\r\n])(?!(?:else|elif|except|finally)\b)[\w'\"(\[{+\-~*.@]")
# Those less likely to be inside a string (where a chunk would not parse): definitions.
_DEFINITION_START = re.compile(r"(?<=[\r\n])(?:(?:async[ \t]+)?def[ \t]|class[ \t]|@)")
_LOOK_BACK = 4096  # characters: how far back the line before a candidate is looked for
# The last long source parsed in chunks: (the chunks' size, the source, (start, end, first line) of each).
_last_chunks: tuple[int, str, list[tuple[int, int, int]]] | None = None


def parse_with_python(source: str) -> ast.Module:
    """`ast.parse`, silent: warnings about the user's code (invalid escapes) are not ours to raise."""
    global _last_parsed
    if _last_parsed is not None and _last_parsed[0] == source:
        return _last_parsed[1]
    tree = _parse(source)
    if _MEMO_FROM <= len(source) < 2 * _CHUNK:  # a longer one's tree is not kept alive
        _last_parsed = (source, tree)
    return tree


def parsed_or_none(source: str) -> ast.Module | None:
    """`parse_with_python(source)`, or None where Python cannot parse it: for what a rule reads
    from the whole text with `ast` (the engine reports a text it cannot parse on its own)."""
    try:
        return parse_with_python(source)
    except (SyntaxError, ValueError, RecursionError):
        return None


def parse_python(text: str, mode: str = "exec") -> ast.AST:
    """`ast.parse`, silent, and raising `RecursionError` for nesting too deep for Python's parser:
    CPython 3.11 raises `MemoryError` there (its parser's stack is full, not the machine's memory)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(text, mode=mode)
        except MemoryError:
            raise RecursionError("nesting too deep for Python's parser") from None


def _parse(text: str) -> ast.Module:
    tree = parse_python(text)
    assert isinstance(tree, ast.Module)
    return tree


def python_chunks(source: str) -> Iterator[ast.Module]:
    """Python's `ast` of `source` as consecutive modules whose statements are, together, the
    module's, with the lines and columns of `source`; only the first one's first statement can be
    the module's docstring. A source shorter than two chunks is one module (`parse_with_python`'s).
    Raises what `ast.parse(source)` raises, at the same place.

    A chunk ends before a line that can start a top-level statement (a definition's, if there is one
    within half a chunk, since such a line is seldom inside a string); one that does not parse alone
    (the line was inside a string or brackets, or after a decorator) is grown to twice its size,
    until it parses or reaches the end, where its error is the source's: a chunk that parses
    starts and ends at top-level statements, so Python's tokenizer and parser are in the same
    state at its start as at the start of the source (no open bracket, string or block)."""
    for _, tree in _chunks(source, max(_CHUNK, len(source) // _MAX_CHUNKS), numbered=True):
        yield tree


def python_chunks_with_offsets(source: str) -> Iterator[tuple[int, ast.Module]]:
    """`python_chunks`, each chunk with lines of its own (its first line is line 1): `(lines of
    `source` before the chunk, its tree)`; a syntax error's line is the chunk's. Such a chunk costs
    its size whatever its place (`python_chunks` puts a newline per line before each), so chunks
    are small (`_SMALL_CHUNK`, unless a statement is longer): one chunk's `ast` is alive at a time,
    and it is small (for one-line statements, about 400 times its text at the parser's peak).
    A source shorter than two `_CHUNK` is one module (`parse_with_python`'s), as there."""
    return _chunks(source, _SMALL_CHUNK, numbered=False)


def _chunks(source: str, size: int, *, numbered: bool) -> Iterator[tuple[int, ast.Module]]:
    global _last_chunks
    if len(source) < 2 * _CHUNK:
        yield 0, parse_with_python(source)
        return
    if _last_chunks is not None and _last_chunks[:2] == (size, source):
        for start, end, line in _last_chunks[2]:
            yield line - 1, _parse(("\n" * (line - 1) if numbered else "") + source[start:end])
        return
    chunks: list[tuple[int, int, int]] = []
    start, line = 0, 1
    while start < len(source):
        end = _statement_start(source, start + size, size // 2)
        while True:
            try:
                tree = _parse(("\n" * (line - 1) if numbered else "") + source[start:end])
                break
            except (SyntaxError, ValueError, RecursionError):
                if end == len(source):
                    raise
                end = _statement_start(source, start + 2 * (end - start), end - start)
        chunks.append((start, end, line))
        yield line - 1, tree
        del tree
        text = source[start:end]
        line += text.count("\n") + text.count("\r") - text.count("\r\n")
        start = end
    _last_chunks = (size, source, chunks)


def forget_last_texts() -> None:
    """Let go of the last text every `of_the_last_text` function keeps its answer for, of the last
    source parsed, and of the last long source parsed in chunks (the language server's worker,
    after a big job: it would hold the job's text until the next one came, two documents at once)."""
    global _last_chunks, _last_parsed
    _last_chunks = _last_parsed = None
    for forget in _FORGETTERS:
        forget()


def _statement_start(source: str, offset: int, reach: int) -> int:
    """The first line from `offset` on that can start a top-level statement and does not follow
    a decorator's line (the first starting a definition, if one does within `reach` characters),
    or the end of `source`."""
    for pattern, until in ((_DEFINITION_START, offset + reach), (_STATEMENT_START, len(source))):
        for match in pattern.finditer(source, offset, until):
            end = match.start() - 1  # the line before ends here, before its line end
            if end > 0 and source[end] == "\n" and source[end - 1] == "\r":
                end -= 1
            window = max(0, end - _LOOK_BACK)
            before = max(source.rfind("\n", window, end), source.rfind("\r", window, end))
            if (before < 0 and window > 0) or not source.startswith("@", before + 1):
                return match.start()
    return len(source)


# A Python name, as a word of a text (a string literal, an IPython line) may spell one.
IDENTIFIER = re.compile(r"[^\W\d]\w*")
_NEWLINE = re.compile(r"\r\n?|\n")  # the line ends of Python's tokenizer (not str.splitlines's)
_SPLIT_UP_TO = 1 << 22  # characters: a longer text's lines are not all held at once
# What `str.splitlines` also ends a line at, besides `\n`
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


_FORGETTERS: list[Callable[[], None]] = []  # of every `of_the_last_text` function


def of_the_last_text(function: Callable[[str], _T]) -> Callable[[str], _T]:
    """`function`, with its answer for the last text it was given kept (that very string object):
    the engine's stages ask several times about the same source. `forget_last_texts` lets go of
    it."""
    last: tuple[str, _T] | None = None

    @functools.wraps(function)
    def kept(text: str) -> _T:
        nonlocal last
        if last is None or last[0] is not text:
            last = (text, function(text))
        return last[1]

    def forget() -> None:
        nonlocal last
        last = None

    _FORGETTERS.append(forget)
    return kept


@of_the_last_text
def line_starts(text: str) -> array[int]:
    """The offset of each line of `text`, and `len(text)` last when it ends with a line end: an
    array of machine ints (4 or 8 bytes a line, where a list holds a 32-byte int object a line),
    not to be changed: the last text's is kept, as the TF 1 check, the plan and its sparse text
    each ask for the same source's (5 ms each over the Model Garden's due files)."""
    starts = array("i" if len(text) < 2**31 else "q", [0])
    if len(text) < _SPLIT_UP_TO and _OTHER_LINE_BREAKS.search(text) is None:
        # `\n` only: `splitlines` is twice as fast, but holds every line at once
        starts.extend(accumulate(map(len, text.splitlines(True))))
        if text and text[-1] != "\n":
            starts.pop()
    else:
        starts.extend(match.end() for match in _NEWLINE.finditer(text))
    return starts


Opcode = tuple[str, int, int, int, int]  # as difflib's: (tag, old from, old to, new from, new to)


def line_opcodes(old: Sequence[str], new: Sequence[str]) -> list[Opcode]:
    """How `new` differs from `old`, lines as items, as difflib's `get_opcodes` says it but in
    linear time where a migration's changes allow: the common first and last lines match first,
    and a middle of the same length on both sides (fixes that keep their lines' count) is paired
    line by line; difflib (quadratic on repeated lines) aligns only a middle whose length changed."""
    head, shortest = 0, min(len(old), len(new))
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shortest - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_end, new_end = len(old) - tail, len(new) - tail
    opcodes: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    if old_end - head == new_end - head:
        for index in range(head, old_end):
            tag = "equal" if old[index] == new[index] else "replace"
            if opcodes and opcodes[-1][0] == tag and opcodes[-1][2] == index:
                opcodes[-1] = (tag, opcodes[-1][1], index + 1, opcodes[-1][3], index + 1)
            else:
                opcodes.append((tag, index, index + 1, index, index + 1))
    else:
        import difflib  # seldom needed: not imported at start-up

        matcher = difflib.SequenceMatcher(None, old[head:old_end], new[head:new_end], autojunk=False)
        opcodes += [
            (tag, a + head, b + head, c + head, d + head) for tag, a, b, c, d in matcher.get_opcodes()
        ]
    if tail:
        opcodes.append(("equal", old_end, len(old), new_end, len(new)))
    return opcodes


def split_lines(text: str) -> list[str]:
    """The lines of `text`, each with its line end (as Python ends lines: LF, CRLF or CR)."""
    starts = line_starts(text)
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True) if a < len(text)]


# A string literal or a comment, whichever starts first (a `#` in a string is the string's, a quote
# in a comment the comment's); prefixes (`r`, `b`, `f`) do not move where the text inside starts.
_STRING_OR_COMMENT = re.compile(
    r"#[^\r\n]*"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*"'
    r"|'[^'\\\r\n]*(?:\\.[^'\\\r\n]*)*'",
    re.DOTALL,
)


def in_code(source: str, word: str) -> Iterator[int]:
    """Where `word` occurs in `source` outside its string literals and comments (an f-string's
    fields count as the string's), in order. An import statement is never inside a string or a
    comment, so none found proves no import holds `word`, in a hundredth of the time of Python's
    `ast` (TF sources name `tensorflow.contrib` or `import tensorflow as tf` mostly in comments
    and docstrings)."""
    spans = _STRING_OR_COMMENT.finditer(source)
    span = next(spans, None)
    at = source.find(word)
    while at >= 0:
        while span is not None and span.end() <= at:
            span = next(spans, None)
        if span is None or at < span.start():
            yield at
        at = source.find(word, at + len(word))


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of `body`, nested ones included, in no order: what holds imports, classes,
    functions and docstrings, without visiting the expressions (most of a tree)."""
    stack = list(body)
    while stack:
        statement = stack.pop()
        yield statement
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(statement, name, None) or ())


def first_line(statement: ast.stmt) -> int:
    """The line `statement` starts on, its decorators included (`ast` puts a decorated definition
    at its `def` or `class` line)."""
    return min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
