"""TF24801 `old-names-in-prose`: Comments and docstrings that still name the TF 2.3 spelling of a renamed
API (opt-in rule)."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from tf24migrate.transforms import discover_rules

from tf24migrate.model.findings import Fix, Severity, Span
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import TextContext
from tf24migrate.rules.docstrings import docstrings, example_and_output_lines
from tf24migrate.rules.kinds import RenameKeyword, RenameMethod, RenameSymbol
from tf24migrate.rules.text import line_starts, python_chunks

_CODE_SPAN = re.compile(r"(?<!`)`([^`\r\n]+)`(?!`)")


@dataclass(frozen=True)
class OldName:
    """One old name as prose mentions it: the shortest dotted tail that the new name does not end with."""

    code: str  # the rule that renames it
    old: tuple[str, ...]  # its components, `tensorflow` left out
    new: tuple[str, ...]
    tail: str  # what a mention must end with, e.g. `experimental.Policy`
    symbol: bool  # a qualified name (else a method or keyword name)

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        after = r"(?![\w]|\.\w)" if self.symbol else r"(?!\w)"
        return re.compile(rf"(?<![\w.])((?:\w+\.)*?){re.escape(self.tail)}{after}")

    def replacement(self, mention: str) -> str:
        """The mention written with the new name: same receiver or module alias where it can be."""
        if not self.symbol:
            return mention[: len(mention) - len(self.tail)] + self.new[-1]
        common = 0
        while common < min(len(self.old), len(self.new)) and self.old[common] == self.new[common]:
            common += 1
        old_rest, new_rest = self.old[common:], self.new[common:]
        parts = tuple(mention.split("."))
        if len(parts) >= len(old_rest) and parts[len(parts) - len(old_rest) :] == old_rest:
            return ".".join(parts[: len(parts) - len(old_rest)] + new_rest)
        return ".".join(("tf", *self.new))


def _identifier_like(word: str) -> bool:
    return "_" in word or word != word.lower()


def _tail(old: tuple[str, ...], new: tuple[str, ...]) -> str | None:
    for length in range(1, len(old) + 1):
        tail = old[-length:]
        if new[-length:] != tail and (length > 1 or _identifier_like(tail[0])):
            return ".".join(tail)
    return None


def old_names(rules: Iterable[Rule]) -> list[OldName]:
    """The renames the rename rules of `rules` make, longest tails first."""
    found: dict[str, OldName] = {}
    for rule in rules:
        held = [
            v
            for value in vars(rule).values()
            for v in (value if isinstance(value, (list, tuple)) else [value])
        ]
        for row in (rule, *held):
            if isinstance(row, RenameSymbol):
                old = tuple(row.old.split(".")[1:])
                new = tuple(row.new.split(".")[1:])
                tail = _tail(old, new)
                if tail is not None:
                    found.setdefault(tail, OldName(rule.code, old, new, tail, True))
            elif isinstance(row, (RenameMethod, RenameKeyword)):
                found.setdefault(row.old, OldName(rule.code, (row.old,), (row.new,), row.old, False))
    return sorted(found.values(), key=lambda name: (-len(name.tail), name.tail))


@dataclass(frozen=True)
class _Text:
    """A piece of prose: one line of a comment or docstring, where it is, and whether it may change."""

    line: int
    column: int  # 0-based character column of `text` on its line
    text: str
    fixable: bool


class OldNamesInProse(Rule):
    """Comments and docstrings that still name the TF 2.3 spelling of a renamed API (opt-in rule).

    Documentation outlives code: after a migration, comments and docstrings keep telling readers
    to call `strategy.experimental_run_v2` or to build a `CollectiveHints`. Every mention of an old
    name that a rename rule of tf24migrate migrates (TF24101, TF24102, TF24103, TF24104, TF24105,
    TF24201, TF24301, TF24302, TF24303, TF24306, TF24403, TF24601 and the others that rename) is
    reported in comments and in docstrings; doctest examples are code and are migrated by the
    rules themselves, and their expected output is left alone. The unsafe fix (only with
    `--unsafe-fixes`) rewrites mentions inside inline code spans (text between single backticks)
    only; a bare word of prose is reported, never rewritten, because it may be talking about the
    old API on purpose. Docstrings with escapes or implicit concatenation are reported, not
    rewritten. A notebook's Markdown cells are prose too, read the same way.

    Before: `` # Calls `strategy.experimental_run_v2` once per replica. ``
    After:  `` # Calls `strategy.run` once per replica. ``

    Versions: the new names exist from TF 2.4 at the latest, each from the version its rename rule
    gives (read there in the tensorflow-cpu wheels); with a target older than 2.4 the fix is
    reported, not applied. No program runs it: it edits comments and docstrings, which do not run.
    """

    code = "TF24801"
    name = "old-names-in-prose"
    fix = Fix.UNSAFE
    severity = Severity.INFO
    default = False
    new_since = "2.4"

    @cached_property
    def names(self) -> list[OldName]:
        return old_names(discover_rules())  # the registry of this package, as the catalogue's

    @cached_property
    def triggers(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(name.tail for name in self.names)

    def scan_text(self, ctx: TextContext, source: str) -> str:
        """`source` with the fixable mentions rewritten (when the fixes apply)."""
        return self._scan(ctx, _prose(source), source)

    def scan_markdown(self, ctx: TextContext, text: str) -> str:
        """A notebook's Markdown cell, every line of it prose: as `scan_text`, lines counted from 1."""
        pieces = [_Text(number, 0, line, True) for number, line in enumerate(text.split("\n"), start=1)]
        return self._scan(ctx, pieces, text)

    def _scan(self, ctx: TextContext, pieces: list[_Text], source: str) -> str:
        edits: list[tuple[int, int, int, str]] = []  # line, start, end (0-based columns), new text
        for piece in pieces:
            if not any(name.tail in piece.text for name in self.names):
                continue
            spans = [(m.start(1), m.end(1)) for m in _CODE_SPAN.finditer(piece.text)]
            for start, end, name in self._mentions(piece.text):
                mention = piece.text[start:end]
                new = name.replacement(mention)
                column = piece.column + start
                span = Span(piece.line, column + 1, piece.line, piece.column + end + 1)
                message = f"`{mention}` is the TF 2.3 name: from TF 2.4 it is `{new}` ({name.code})."
                if not (piece.fixable and any(a <= start and end <= b for a, b in spans)):
                    ctx.report(span, f"{message} Write `{new}` if it means the new API.")
                elif ctx.report(span, message, replacement=new):
                    edits.append((piece.line, column, piece.column + end, new))
        return _apply(source, edits)

    def _mentions(self, text: str) -> list[tuple[int, int, OldName]]:
        """The mentions of old names in `text`: (start, end, name), longest first where they overlap."""
        found = []
        for name in self.names:
            found += [(m.start(), m.end(), name) for m in name.pattern.finditer(text)]
        found.sort(key=lambda hit: (hit[0], -hit[1]))
        kept: list[tuple[int, int, OldName]] = []
        for hit in found:
            if not kept or hit[0] >= kept[-1][1]:
                kept.append(hit)
        return kept


def _prose(source: str) -> list[_Text]:
    """The lines of comments and of docstrings (outside doctest examples and their output)."""
    try:
        found = docstrings(source, python_chunks(source), marker="")
        pieces = [
            _Text(token.start[0], token.start[1], token.string, True)
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT
        ]
    except (SyntaxError, ValueError, RecursionError, tokenize.TokenError):
        return []
    for docstring in found:
        skipped = example_and_output_lines(docstring.lines)
        for index, (text, _) in enumerate(docstring.lines):
            if index not in skipped:
                column = docstring.column if index == 0 else 0
                pieces.append(_Text(docstring.line + index, column, text, docstring.spliceable))
    return sorted(pieces, key=lambda piece: (piece.line, piece.column))


def _apply(source: str, edits: list[tuple[int, int, int, str]]) -> str:
    if not edits:
        return source
    starts = line_starts(source)
    pieces, copied = [], 0
    for line, start, end, new in sorted(edits):
        begin = starts[line - 1]
        pieces += [source[copied : begin + start], new]
        copied = begin + end
    return "".join(pieces) + source[copied:]


RULES = (OldNamesInProse(),)
