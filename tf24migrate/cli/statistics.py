"""`--statistics`: for each rule, how many sites it fixed and how many it reported, for planning."""

from __future__ import annotations

import collections
from collections.abc import Iterable

from tf24migrate.model.findings import Finding


class RuleStatistics:
    def __init__(self) -> None:
        self.fixed: collections.Counter[str] = collections.Counter()
        self.reported: collections.Counter[str] = collections.Counter()
        self.names: dict[str, str] = {}

    def add(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            self.names[finding.code] = finding.name
            (self.fixed if finding.applied else self.reported)[finding.code] += 1

    def lines(self, *, written: bool) -> list[str]:
        """One line per rule that fired, by code: `CODE  name  N fixed  M reported`."""
        if not self.names:
            return []
        fixed = "fixed" if written else "fixable"
        rows = [
            (code, self.names[code], f"{self.fixed[code]} {fixed}", f"{self.reported[code]} reported")
            for code in sorted(self.names)
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        return [
            "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3]
            for row in rows
        ]

    def json(self, *, written: bool) -> list[dict]:
        """One entry per rule that fired, by code: `applied` fixes (in this run's output), of which
        `written` are on disk, and `reported` findings left to the user."""
        return [
            {
                "code": code,
                "name": self.names[code],
                "applied": self.fixed[code],
                "written": self.fixed[code] if written else 0,
                "reported": self.reported[code],
            }
            for code in sorted(self.names)
        ]
