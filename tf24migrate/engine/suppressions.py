"""Suppression comments: `# tf24migrate: ignore` (every rule) or `# tf24migrate: ignore[TF24101,
experimental-hints-keyword]` (codes or names) on the first or last line of a finding silences it
(`//` and `/*` comments in C and C++ too); so does `# noqa: TF24101` (the TF24 codes of a `noqa`
list; the others are other tools'). A bare `# noqa` is left to the linters it is written for.
A code or name that is no rule nor note is reported (`UNKNOWN_SUPPRESSION`).
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache

from tf24migrate.model.findings import Finding, MigrationResult, Span
from tf24migrate.model.notes import NOTES, UNKNOWN_SUPPRESSION, note_finding

# `#` in Python; `//` or `/*` in the C and C++ sources that TF24701 reads.
_SUPPRESSION = re.compile(r"(?:#|//|/\*)\s*tf24migrate:\s*ignore(?:\[([^\]\n]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa\s*:\s*([A-Za-z0-9_-]+(?:[\s,]+[A-Za-z0-9_-]+)*)", re.IGNORECASE)
_TF24_CODE = re.compile(r"TF24\d*", re.IGNORECASE)


@cache
def _known() -> tuple[frozenset[str], dict[str, str]]:
    """Every code of a rule or note, and `{name: code}` (from the catalogue: no rule is loaded)."""
    from tf24migrate.catalogue.entries import entries

    codes = {entry.code for entry in entries()} | {note.code for note in NOTES}
    names = {entry.name: entry.code for entry in entries()} | {note.name: note.code for note in NOTES}
    return frozenset(codes), names


def _entries(line: str) -> tuple[list[str] | None, list[tuple[int, str]]]:
    """The codes a line's comments suppress (None: every code; `[]`: none) and the entries
    naming no rule or note, with their columns (1-based)."""
    codes: list[str] | None = []
    unknown: list[tuple[int, str]] = []
    known, names = _known()
    match = _SUPPRESSION.search(line)
    if match:
        if match.group(1) is None:
            codes = None
        else:
            for entry in re.finditer(r"[^,\s]+", match.group(1)):
                text = entry.group()
                code = text.upper() if text.upper() in known else names.get(text.lower())
                if code is None:
                    unknown.append((match.start(1) + entry.start() + 1, text))
                elif codes is not None:
                    codes.append(code)
    noqa = _NOQA.search(line)
    if noqa:
        for entry in re.finditer(r"[^,\s]+", noqa.group(1)):
            if not _TF24_CODE.fullmatch(entry.group()):
                continue  # another tool's code
            if entry.group().upper() in known:
                if codes is not None:
                    codes.append(entry.group().upper())
            else:
                unknown.append((noqa.start(1) + entry.start() + 1, entry.group()))
    return codes, unknown


# Characters `_marked` lower-cases at a time: `str.lower` of a text beyond Latin-1 takes 12 bytes a
# character while it works (room for each to become three), 12 MB for a piece of a megabyte; a
# piece of 64 K is as fast.
_PIECE = 64 * 1024


def _marked(source: str) -> bool:
    """Whether `source` (a file's, or one line) may hold a suppression comment: `tf24migrate` or
    `noqa` in any case, as the comments' patterns read them (`# NOQA: TF24101`). Looked for in
    lower-cased pieces (`_PIECE`), each overlapping the next by a marker's length: a long
    source is never copied whole, and two finds in a lower-cased copy cost less than three in the
    text."""
    overlap = len("tf24migrate") - 1
    for start in range(0, len(source), _PIECE):
        piece = source[start : start + _PIECE + overlap].lower()
        if "tf24migrate" in piece or "noqa" in piece:
            return True
    return False


def line_suppressions(source: str) -> dict[int, frozenset[str] | None]:
    """`{line: codes}` for each line with a suppression comment; None means every code."""
    if not _marked(source):
        return {}
    result: dict[int, frozenset[str] | None] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        if not _marked(line):
            continue
        codes, _ = _entries(line)
        if codes is None or codes:
            result[number] = None if codes is None else frozenset(codes)
    return result


def with_unknown_suppressions(result: MigrationResult, path: str | None) -> MigrationResult:
    """`result` with a finding for each code or name in a suppression comment of its source that
    is no rule nor note."""
    unknown = unknown_suppressions(result.source, path)
    if not unknown:
        return result
    findings = sorted((*result.findings, *unknown), key=lambda f: (f.line, f.column, f.code))
    return dataclasses.replace(result, findings=tuple(findings))


def unknown_suppressions(source: str, path: str | None) -> tuple[Finding, ...]:
    """A finding for each code or name in a suppression comment that is no rule nor note."""
    if not _marked(source):
        return ()
    findings = []
    for number, line in enumerate(source.splitlines(), start=1):
        if not _marked(line):
            continue
        for column, text in _entries(line)[1]:
            message = f"`{text}` in a suppression comment is no rule nor note: it suppresses nothing"
            findings.append(note_finding(UNKNOWN_SUPPRESSION, message, path=path, line=number, column=column))
    return tuple(findings)


def is_suppressed(span: Span, code: str, suppressions: dict[int, frozenset[str] | None]) -> bool:
    for line in {span.line, span.end_line}:
        if line in suppressions:
            codes = suppressions[line]
            if codes is None or code in codes:
                return True
    return False
