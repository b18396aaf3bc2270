"""A file's change as runs of changed lines (`Hunk`), and which runs a finding's fix makes: what
SARIF's fixes, rdjson's suggestions and the migration report (`cli.report`) show of a change."""

from __future__ import annotations

from dataclasses import dataclass

from tf24migrate.model.findings import Finding
from tf24migrate.rules.text import line_opcodes


@dataclass(frozen=True)
class Hunk:
    """A changed run of source lines: lines `start` to `end` (0-based, end exclusive; equal for an
    insertion), at characters `offset` to `offset + length`, replaced by `text`."""

    start: int
    end: int
    offset: int
    length: int
    text: str


def changed_hunks(source: str, code: str) -> list[Hunk]:
    """The changed runs of lines between `source` and `code`."""
    before = source.splitlines(keepends=True)
    after = code.splitlines(keepends=True)
    line_starts = [0]
    for line in before:
        line_starts.append(line_starts[-1] + len(line))
    return [
        Hunk(i1, i2, line_starts[i1], line_starts[i2] - line_starts[i1], "".join(after[j1:j2]))
        for tag, i1, i2, j1, j2 in line_opcodes(before, after)
        if tag != "equal"
    ]


def covering(finding: Finding, hunks: list[Hunk]) -> list[Hunk]:
    """The changed runs of lines that cover `finding`'s lines (or an insertion among them)."""
    first, last = finding.line - 1, finding.end_line  # the finding's lines, 0-based, end exclusive
    return [
        hunk
        for hunk in hunks
        if (hunk.start < last and hunk.end > first)
        or (hunk.start == hunk.end and first <= hunk.start <= last)
    ]
