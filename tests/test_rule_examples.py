"""The examples in every rule's docstring run (Fixit's VALID/INVALID idea).

A rule's docs show `Before:` / `After:` (what the fix changes) or `Reported:` / `Write instead:` (what
is reported, and code that is not). An example is either inline, code spans on the marker's line
joined by `then` or `and` (one statement each) and optionally followed by a remark in parentheses,
or a block: the marker alone on its line, then a blank line and the code indented below it.
`import tensorflow as tf` goes in front of an example that imports no TensorFlow itself.

Checked: `Before` migrated with the rule selected (unsafe fixes on when the rule's fix is unsafe)
gives `After` (the same syntax tree and comments: the docs write on one line what the fix may
wrap); `Reported` gives a finding of the rule and no
change; `Write instead` gives no finding of the rule. A C rule's examples are C, scanned as a `.cc`.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass

import pytest

from tf24migrate import migrate_source
from tf24migrate.catalogue.selection import all_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import Fix
from tf24migrate.rules.needles import IMPORTS_PUBLIC_TENSORFLOW
from tf24migrate.sources.c_sources import scan_c_source

# Examples known not to hold, each with the reason; an entry whose example passes fails the test.
KNOWN_WRONG: dict[tuple[str, str], str] = {}
PAIRS = {"Before": "After", "Reported": "Write instead"}
_MARKER = re.compile(r"^(?P<indent> *)(?P<marker>Before|After|Reported|Write instead):(?P<rest>.*)$")
# `code`, or ``code`` (one space inside each end is padding, as in Markdown)
_SPAN = re.compile(r"``(?: (?=\S))?(?P<double>.+?)(?: )?``|`(?P<single>[^`]+)`")
_JOIN = re.compile(r"\s+(?:then|and)\s+")
_REMARK = re.compile(r"\s+\([^\n]*\)\s*$")


@dataclass(frozen=True)
class Example:
    marker: str
    code: str


@dataclass(frozen=True)
class Pair:
    first: Example
    second: Example


class UnrunnableExample(ValueError):
    """An example marker whose text is not code this test can run."""


def inline_code(rest: str) -> str:
    """The statements of an inline example: its code spans, one per line."""
    statements, position = [], 0
    while True:
        span = _SPAN.match(rest, position)
        if span is None:
            raise UnrunnableExample(f"expected a code span at {rest[position:]!r}")
        statements.append(span.group("double") or span.group("single"))
        position = span.end()
        join = _JOIN.match(rest, position)
        if join is not None:
            position = join.end()
            continue
        tail = rest[position:]
        if tail.strip() and not _REMARK.fullmatch(tail):
            raise UnrunnableExample(f"expected `then`, `and` or a remark in parentheses at {tail!r}")
        return "\n".join(statements) + "\n"


def block_code(lines: list[str], start: int, indent: int) -> str:
    """The indented block after the marker line at `start - 1`."""
    block = []
    for line in lines[start:]:
        if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
            break
        block.append(line)
    code = textwrap.dedent("\n".join(block)).strip("\n")
    if not code:
        raise UnrunnableExample("the marker stands alone but no indented block follows it")
    return code + "\n"


def examples(doc: str) -> list[Pair]:
    """The example pairs of a docstring, in order."""
    lines = doc.split("\n")
    found = []
    for number, line in enumerate(lines):
        match = _MARKER.match(line)
        if match is None:
            continue
        rest = match.group("rest").strip()
        try:
            code = inline_code(rest) if rest else block_code(lines, number + 1, len(match.group("indent")))
        except UnrunnableExample as error:
            raise UnrunnableExample(f"{line.strip()!r}: {error}") from None
        found.append(Example(match.group("marker"), code))
    pairs = []
    for first, second in zip(found[::2], found[1::2], strict=False):
        if PAIRS.get(first.marker) != second.marker:
            raise UnrunnableExample(f"`{first.marker}:` is followed by `{second.marker}:`")
        pairs.append(Pair(first, second))
    if len(found) % 2:
        raise UnrunnableExample(f"`{found[-1].marker}:` has no `{PAIRS.get(found[-1].marker, 'pair')}:`")
    return pairs


def with_import(code: str, reference: str) -> str:
    """`code` with `import tensorflow as tf` in front when the example `reference` imports none of
    its public API (an example importing internals is a user's file, which imports both)."""
    return code if IMPORTS_PUBLIC_TENSORFLOW.search(reference) else "import tensorflow as tf\n" + code


def run(rule, code: str):
    if rule.c_identifiers:
        return scan_c_source(code, Settings([rule]), path="example.cc")
    return migrate_source(code, path="example.py", select=[rule.code], unsafe_fixes=rule.fix is Fix.UNSAFE)


def meaning(code: str) -> tuple[str, list[str]]:
    """What `code` says, its layout aside: its syntax tree and its comments."""
    comments = [
        t.string for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT
    ]
    return ast.dump(ast.parse(code)), comments


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_docstring_examples_run(rule):
    pairs = examples(rule.doc)
    assert pairs, f"{rule.code}'s docstring has no example to run"
    c_rule = bool(rule.c_identifiers)
    for pair in pairs:
        first = pair.first.code if c_rule else with_import(pair.first.code, pair.first.code)
        result = run(rule, first)
        codes = [f.code for f in result.findings]
        assert rule.code in codes, f"{rule.code}: `{pair.first.marker}:` gives no finding:\n{first}"
        if pair.first.marker == "Before":
            after = with_import(pair.second.code, pair.first.code)
            assert meaning(result.code) == meaning(after), (
                f"{rule.code}: `Before:` migrates to\n{result.code}\nnot to the `After:`\n{after}"
            )
        else:
            assert result.code == first, f"{rule.code}: `Reported:` is changed:\n{result.code}"
            second = pair.second.code if c_rule else with_import(pair.second.code, pair.second.code)
            reported = rule.code in [f.code for f in run(rule, second).findings]
            known = KNOWN_WRONG.get((rule.code, pair.second.marker))
            if known is not None:
                assert reported, f"{rule.code}: the KNOWN_WRONG entry is fixed; delete it ({known})"
                continue
            assert not reported, f"{rule.code}: `Write instead:` is reported too:\n{second}"


def test_an_inline_example_is_its_code_spans():
    doc = "Before: `x = 1` then `y = x` (a remark)\nAfter:  `` y = `1` ``"
    (pair,) = examples(doc)
    assert (pair.first.code, pair.second.code) == ("x = 1\ny = x\n", "y = `1`\n")


def test_a_block_example_is_the_indented_code_below_its_marker():
    doc = "Reported:\n\n    if x:\n        y()\n\nWrite instead: `z()`\n\nVersions: 2.4"
    (pair,) = examples(doc)
    assert (pair.first.code, pair.second.code) == ("if x:\n    y()\n", "z()\n")


@pytest.mark.parametrize(
    "doc",
    [
        "Before: `import tensorflow as tf` ... `main()`\nAfter: `main()`",
        "Reported: calls passing `batch_size=`\nWrite instead: `f()`",
        "Before: `f()`\nWrite instead: `g()`",
        "Before: `f()`",
    ],
)
def test_an_example_that_cannot_run_is_an_error(doc):
    with pytest.raises(UnrunnableExample):
        examples(doc)
