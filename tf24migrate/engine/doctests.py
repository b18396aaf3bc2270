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
from collections.abc import Callable, Iterable, Iterator

from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine.ast_bindings import bindings
from tf24migrate.model.findings import Finding, MigrationResult
from tf24migrate.rules.docstrings import Docstring, docstrings, examples
from tf24migrate.rules.text import parse_python, parse_with_python, python_chunks

TF_IMPORT = "import tensorflow as tf"  # put before the examples of a file that binds `tf` by it


def binds_tf(tree: ast.Module) -> bool:
    """Whether the module (or chunk of it, `python_chunks`) binds `tf` by `import tensorflow as tf`
    at its top level."""
    return any(
        isinstance(s, ast.Import) and any(a.name == "tensorflow" and a.asname == "tf" for a in s.names)
        for s in tree.body
    )


def _compiles(code: str, mode: str = "exec") -> bool:
    try:
        if mode == "exec":
            for _ in python_chunks(code):
                pass
        else:
            parse_python(code, mode)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return True


RunModule = Callable[[str, Settings, str | None], MigrationResult]


def migrate_doctests(
    source: str,
    run: RunModule,
    settings: Settings,
    *,
    path: str | None,
    suppressed: Callable[[Finding], bool],
) -> tuple[str, list[Finding]]:
    """`source` with its doctest examples migrated by `run` (the engine's pass over a module:
    `run(text, settings, path)`), and the findings at the file's lines."""
    tf_bound = False

    def read(trees: Iterable[ast.Module]) -> Iterator[ast.Module]:
        nonlocal tf_bound
        for tree in trees:
            tf_bound = tf_bound or binds_tf(tree)
            yield tree

    try:
        found = docstrings(source, read(python_chunks(source)))
    except (SyntaxError, ValueError, RecursionError):
        return source, []
    pieces, copied, findings = [], 0, []
    for docstring in found:
        if not docstring.spliceable:
            continue
        new_text, in_docstring = _migrate_one(docstring, run, tf_bound, path, settings, suppressed)
        findings += in_docstring
        if new_text is not None:
            pieces += [source[copied : docstring.start], new_text]
            copied = docstring.end
    if not pieces:
        return source, findings
    code = "".join(pieces) + source[copied:]
    if not _compiles(code):  # never hand out code that does not parse: report only
        return source, [dataclasses.replace(f, applied=False) for f in findings]
    return code, findings


def _migrate_one(
    docstring: Docstring,
    run: RunModule,
    tf_bound: bool,
    path: str | None,
    settings: Settings,
    suppressed: Callable[[Finding], bool],
) -> tuple[str | None, list[Finding]]:
    """(the docstring's new text or None, its findings)."""
    found = examples(docstring.lines)
    code_lines = [(i, prompt) for example in found for i, prompt in example.lines]
    text = "".join(docstring.lines[i][0][len(prompt) :] + "\n" for i, prompt in code_lines)
    if not code_lines or not _compiles(text):
        return None, []
    prelude = 0
    if tf_bound and not any(name == "tf" for s in parse_with_python(text).body for name, *_ in bindings(s)):
        text, prelude = TF_IMPORT + "\n" + text, 1

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

    declined_at = {key(f) for f in settings.declined}
    result = run(text, settings.declining(()), path)
    placed = [(f, place(f)) for f in result.findings]
    dropped = {key(f) for f, p in placed if p is None or suppressed(p)}  # not reported at all
    refused = dropped | {key(f) for f, p in placed if p is not None and key(p) in declined_at}
    if refused:  # suppressed or declined: run again with those fixes declined
        result = run(text, settings.declining(f for f, _ in placed if key(f) in refused), path)
    new_lines = _spliced(docstring, code_lines, result.code, prelude) if result.changed else None
    if result.changed and new_lines is None:  # not faithfully spliceable: report, do not apply
        result = run(text, settings.declining(result.findings), path)
    findings = [p for f in result.findings if key(f) not in dropped and (p := place(f)) is not None]
    return (docstring.text(new_lines) if new_lines is not None else None), findings


def _spliced(docstring: Docstring, code_lines, new_code: str, prelude: int) -> list[tuple[str, str]] | None:
    """The docstring's lines with the new code behind the old prompts, or None when that is not
    a faithful splice (a line more or less, a quote or backslash the literal cannot hold, an
    example that no longer compiles on its own)."""
    new = new_code.split("\n")
    if new and new[-1] == "":
        new.pop()
    if prelude and (not new or new[0] != TF_IMPORT):
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
