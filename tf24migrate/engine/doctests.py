"""Doctest examples in docstrings: code that `doctest` runs, migrated with the file's rules.

A docstring (the string literal that is the first statement of a module, class or function)
holding `>>>` has examples: each `>>> ` line and the `... ` lines after it at the same
indentation. Prose and expected-output lines are never touched. The examples of one docstring,
prompts stripped, are joined in order into one small module (so an import in an early example
binds the names of later ones), the engine's own pass runs on it (`run`), and each changed line
goes back behind its prompt and indentation. Findings are placed at the file's lines.

Names the file binds: the examples are their own module, with one exception. When the file
binds `tf` by `import tensorflow as tf` at its top level and the examples do not bind `tf`
themselves, `import tensorflow as tf` is put before them (doctest usually runs with the module's
globals), and taken away again afterwards.

Left alone (no finding, no rewrite): docstrings whose text is not exactly their value, where a
splice could change the value in other ways (non-raw strings holding a backslash, f-strings,
bytes, implicit concatenations), and examples that do not parse. Fixes are applied only when the
examples keep their number of lines and every example still compiles as one doctest example;
otherwise they are reported, not applied.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from tf24migrate.engine.pruning import bindings, line_starts, parse_with_python
from tf24migrate.model.findings import Finding, MigrationResult

_PROMPT = re.compile(r"([ \t]*)>>>(?: |$)")
_LINE = re.compile(r"([^\r\n]*)(\r\n?|\n|$)")
_LITERAL = re.compile(r"([rRuU]?)('''|\"\"\"|'|\")")
_TF_IMPORT = "import tensorflow as tf"


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


def docstring_nodes(tree: ast.Module) -> Iterator[ast.Constant]:
    """The docstring constants of the module and of every class and function in it."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, (ast.Constant, ast.JoinedStr)):
                yield first.value  # type: ignore[misc]


def docstrings(source: str, tree: ast.Module, marker: str = ">>>") -> list[Docstring]:
    """The plain-string docstrings of `source` holding `marker`, in file order."""
    starts = line_starts(source)
    found = []
    for node in docstring_nodes(tree):
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


def _offset(source: str, starts: list[int], line: int, byte_column: int) -> int:
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


def binds_tf(tree: ast.Module) -> bool:
    """Whether the module binds `tf` by `import tensorflow as tf` at its top level."""
    return any(
        isinstance(s, ast.Import) and any(a.name == "tensorflow" and a.asname == "tf" for a in s.names)
        for s in tree.body
    )


def _compiles(code: str, mode: str = "exec") -> bool:
    try:
        parse_with_python(code) if mode == "exec" else ast.parse(code, mode=mode)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return True


RunModule = Callable[..., MigrationResult]


def migrate_doctests(
    source: str,
    run: RunModule,
    *,
    path: str | None,
    unsafe_fixes: bool,
    declined: Collection[Finding],
    suppressed: Callable[[Finding], bool],
) -> tuple[str, list[Finding]]:
    """`source` with its doctest examples migrated by `run` (the engine's pass over a module:
    `run(text, path=, unsafe_fixes=, declined=)`), and the findings at the file's lines."""
    try:
        tree = parse_with_python(source)
    except (SyntaxError, ValueError, RecursionError):
        return source, []
    tf_bound = binds_tf(tree)
    pieces, copied, findings = [], 0, []
    for docstring in docstrings(source, tree):
        if not docstring.spliceable:
            continue
        new_text, found = _migrate_one(docstring, run, tf_bound, path, unsafe_fixes, declined, suppressed)
        findings += found
        if new_text is not None:
            pieces += [source[copied : docstring.start], new_text]
            copied = docstring.end
    if not pieces:
        return source, findings
    code = "".join(pieces) + source[copied:]
    if not _compiles(code):  # never hand out code that does not parse: report only
        return source, [dataclasses.replace(f, applied=False) for f in findings]
    return code, findings


def _migrate_one(docstring, run, tf_bound, path, unsafe_fixes, declined, suppressed):
    """(the docstring's new text or None, its findings)."""
    found = examples(docstring.lines)
    code_lines = [(i, prompt) for example in found for i, prompt in example.lines]
    text = "".join(docstring.lines[i][0][len(prompt) :] + "\n" for i, prompt in code_lines)
    if not code_lines or not _compiles(text):
        return None, []
    prelude = 0
    if tf_bound and not any(name == "tf" for s in parse_with_python(text).body for name, _, _ in bindings(s)):
        text, prelude = _TF_IMPORT + "\n" + text, 1

    def place(finding: Finding) -> Finding | None:
        first, last = finding.line - 1 - prelude, finding.end_line - 1 - prelude
        if first < 0 or first >= len(code_lines):
            return None  # on the line put before the examples
        last = min(max(last, first), len(code_lines) - 1)
        (line, prompt), (end_line, end_prompt) = code_lines[first], code_lines[last]
        return dataclasses.replace(
            finding,
            line=docstring.line + line,
            column=finding.column + len(prompt) + (docstring.column if line == 0 else 0),
            end_line=docstring.line + end_line,
            end_column=finding.end_column + len(end_prompt) + (docstring.column if end_line == 0 else 0),
        )

    def key(finding: Finding) -> tuple[str, int, int]:
        return finding.code, finding.line, finding.column

    declined_at = {key(f) for f in declined}
    result = run(text, path=path, unsafe_fixes=unsafe_fixes)
    placed = [(f, place(f)) for f in result.findings]
    dropped = {key(f) for f, p in placed if p is None or suppressed(p)}  # not reported at all
    refused = dropped | {key(f) for f, p in placed if p is not None and key(p) in declined_at}
    if refused:  # suppressed or declined: run again with those fixes declined
        result = run(
            text, path=path, unsafe_fixes=unsafe_fixes, declined=[f for f, _ in placed if key(f) in refused]
        )
    new_lines = _spliced(docstring, code_lines, result.code, prelude) if result.changed else None
    if result.changed and new_lines is None:  # not faithfully spliceable: report, do not apply
        result = run(text, path=path, unsafe_fixes=unsafe_fixes, declined=result.findings)
    findings = [p for f in result.findings if key(f) not in dropped and (p := place(f)) is not None]
    return (docstring.text(new_lines) if new_lines is not None else None), findings


def _spliced(docstring: Docstring, code_lines, new_code: str, prelude: int) -> list[tuple[str, str]] | None:
    """The docstring's lines with the new code behind the old prompts, or None when that is not
    a faithful splice (a line more or less, a quote or backslash the literal cannot hold, an
    example that no longer compiles on its own)."""
    new = new_code.split("\n")
    if new and new[-1] == "":
        new.pop()
    if prelude and (not new or new[0] != _TF_IMPORT):
        return None
    new = new[prelude:]
    if len(new) != len(code_lines):
        return None
    lines = list(docstring.lines)
    for (index, prompt), code in zip(code_lines, new, strict=True):
        old = lines[index][0]
        if old[len(prompt) :] == code:
            continue
        if (not docstring.raw and "\\" in code) or docstring.quote[0] in code:
            return None
        lines[index] = ((prompt + code) if code.strip() else prompt.rstrip(), lines[index][1])
    for example in examples(lines):
        body = "\n".join(lines[i][0][len(p) :] for i, p in example.lines) + "\n"
        if not _compiles(body, "single"):
            return None
    return lines
