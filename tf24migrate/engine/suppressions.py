"""Suppression comments: `# tf24migrate: ignore` (every rule) or `# tf24migrate: ignore[TF24101,TF242]`
on the first or last line of a finding silences it (`//` and `/*` comments in C and C++ too)."""

from __future__ import annotations

import re

from tf24migrate.model.findings import Span

# `#` in Python; `//` or `/*` in the C and C++ sources that TF24701 reads.
_SUPPRESSION = re.compile(r"(?:#|//|/\*)\s*tf24migrate:\s*ignore(?:\[([A-Za-z0-9_,\s-]*)\])?", re.IGNORECASE)


def line_suppressions(source: str) -> dict[int, frozenset[str] | None]:
    """`{line: codes}` for each line with a suppression comment; None means every code."""
    if "tf24migrate" not in source:
        return {}
    result: dict[int, frozenset[str] | None] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        match = _SUPPRESSION.search(line)
        if match:
            codes = match.group(1)
            result[number] = (
                None if codes is None else frozenset(c.strip().upper() for c in codes.split(",") if c.strip())
            )
    return result


def is_suppressed(span: Span, code: str, suppressions: dict[int, frozenset[str] | None]) -> bool:
    for line in {span.line, span.end_line}:
        if line in suppressions:
            codes = suppressions[line]
            if codes is None or code in codes:
                return True
    return False
