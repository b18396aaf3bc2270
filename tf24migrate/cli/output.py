"""What every output format shares: finding lines, fix markers, the summary, the target as JSON
(each format's reporter is in `cli.reporters`).

Pure functions from results to strings or dicts; the CLI decides where they are printed. Text
meant for a terminal goes through `printable`: a file name or a message holding a newline or an
escape sequence prints as one line, escaped, and never reaches the terminal raw.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tf24migrate.model.findings import FileResult, Finding, Fix, Severity, Status

# Control characters (C0, DEL, C1), the Unicode line and paragraph separators, the bidirectional
# controls and the zero-width characters (a name printed must read as what it is, as git shows
# it). A name's bytes that are not UTF-8 are printed as they are.
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]"
)


def printable(text: str) -> str:
    """`text` with its control characters escaped as Python's `repr` does (`\\n`, `\\x1b`)."""
    return _CONTROL.sub(lambda match: repr(match.group())[1:-1], text)


def fix_marker(finding: Finding, *, written: bool) -> str:
    if finding.applied:
        return "[fixed]" if written else "[fixable]"
    if finding.fix is Fix.UNSAFE:
        return "[unsafe fix: --unsafe-fixes]"
    return ""


def finding_line(finding: Finding, *, written: bool) -> str:
    """`path:line:col: CODE severity [marker] message`: the severity says whether it sets the exit
    code (an error left unfixed does), the marker whether its fix is applied."""
    marker = fix_marker(finding, written=written)
    line = f"{finding.location}: {finding.code} {finding.severity.value} {marker + ' ' if marker else ''}{finding.message}"
    return printable(line)


@dataclass
class Summary:
    """The totals of a run, counted as its results come (`add`)."""

    files_scanned: int = 0
    files_changed: int = 0
    files_failed: int = 0
    findings: int = 0
    fixed: int = 0
    unfixed_errors: int = 0

    @classmethod
    def of(cls, results: Iterable[FileResult]) -> Summary:
        summary = cls()
        for result in results:
            summary.add(result)
        return summary

    def add(self, result: FileResult) -> None:
        """Count one more file's result (most have no finding: a run adds each as it comes)."""
        self.files_scanned += 1
        if result.status is Status.CHANGED:
            self.files_changed += 1
        elif result.status is Status.FAILED:
            self.files_failed += 1
        findings = result.findings
        if not findings:
            return
        self.findings += len(findings)
        for finding in findings:
            if finding.applied:
                self.fixed += 1
            elif finding.severity is Severity.ERROR:
                self.unfixed_errors += 1

    def line(self, *, written: bool) -> str:
        def plural(n: int, word: str) -> str:
            return f"{n} {word}{'' if n == 1 else 's'}"

        changed = "changed" if written else "to change"
        parts = [
            f"{plural(self.files_scanned, 'file')} scanned",
            f"{self.files_changed} {changed}",
            f"{self.files_failed} failed",
            f"{plural(self.findings, 'finding')} ({self.fixed} {'fixed' if written else 'fixable'}, "
            f"{self.findings - self.fixed} left to you)",
        ]
        return "tf24migrate: " + ", ".join(parts)


def target_json(target) -> dict:
    """The target as JSON: `{"version": "2.3", "source": "from requirements.txt", "newest": null}`."""
    from tf24migrate.model.target import format_version

    return {
        "version": format_version(target.version),
        "source": target.source,
        "newest": format_version(target.newest),
    }
