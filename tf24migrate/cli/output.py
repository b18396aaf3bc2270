"""Turning results into text: unified diffs, finding lines, the summary, the JSON document and
GitHub workflow annotations (the SARIF log is `sarif.py`).

Pure functions from results to strings or dicts; the CLI decides where they are printed. Text
meant for a terminal goes through `printable`: a file name or a message holding a newline or an
escape sequence prints as one line, escaped, and never reaches the terminal raw.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tf24migrate.model.findings import FileResult, Finding, Fix, Severity, Status
from tf24migrate.sources.kinds import kind_of

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


@dataclass(frozen=True)
class Summary:
    files_scanned: int
    files_changed: int
    files_failed: int
    findings: int
    fixed: int
    unfixed_errors: int

    @classmethod
    def of(cls, results: Iterable[FileResult]) -> Summary:
        summary = cls(0, 0, 0, 0, 0, 0)
        for result in results:
            summary = summary.plus(result)
        return summary

    def plus(self, result: FileResult) -> Summary:
        """This summary and one more file's result (a run adds each as it comes: most have no
        finding, and cost four additions)."""
        findings = result.findings
        fixed = unfixed_errors = 0
        for finding in findings:
            if finding.applied:
                fixed += 1
            elif finding.severity is Severity.ERROR:
                unfixed_errors += 1
        return Summary(
            self.files_scanned + 1,
            self.files_changed + (result.status is Status.CHANGED),
            self.files_failed + (result.status is Status.FAILED),
            self.findings + len(findings),
            self.fixed + fixed,
            self.unfixed_errors + unfixed_errors,
        )

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


def finding_json(finding: Finding, *, written: bool = False) -> dict:
    """A finding as JSON; one in a notebook also has `cell` (its line and column are in that cell).

    `applied`: the fix is part of this run's output (the diff, or the file written); `written`: it
    is on disk (`written` says whether the finding's file was written)."""
    entry = {
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "code": finding.code,
        "name": finding.name,
        "severity": finding.severity.value,
        "message": finding.message,
        "fix": finding.fix.value if finding.fix else None,
        "applied": finding.applied,
        "written": finding.applied and written,
        "new_since": finding.new_since,
        "old_removed": finding.old_removed,
        "changed_in": finding.changed_in,
    }
    if finding.cell is not None:
        entry["cell"] = finding.cell
    return entry


def json_document(
    results: Sequence[FileResult],
    version: str,
    *,
    with_diffs: bool,
    target=None,
    statistics=None,
    with_code: bool = False,
) -> dict:
    """The JSON output; `target` (a `tf24migrate.model.target.Target`) is the TensorFlow the run aimed at;
    `statistics` (a list, `RuleStatistics.json`) is added as `"statistics"` when given. With
    `with_code` (a source from stdin) every file is listed, with its migrated source as `"code"`
    (the source as it was when it failed)."""
    summary = Summary.of(results)
    files = []
    for result in results:
        if result.status is Status.UNCHANGED and not result.findings and not with_code:
            continue
        entry = {
            "path": result.path,
            "status": result.status.value,
            "error": result.error,
            "written": result.written,
        }
        if with_diffs and result.status is Status.CHANGED:
            entry["diff"] = kind_of(result.path).diff(result.path, result.source or "", result.code or "")
        if with_code:
            entry["code"] = result.code if result.code is not None else result.source
        files.append(entry)
    return {
        "tf24migrate": version,
        "summary": {
            "files_scanned": summary.files_scanned,
            "files_changed": summary.files_changed,
            "files_failed": summary.files_failed,
            "findings": summary.findings,
        },
        "files": files,
        "findings": [finding_json(f, written=r.written) for r in results for f in r.findings],
        **({"target": target_json(target)} if target is not None else {}),
        **({"statistics": statistics} if statistics is not None else {}),
    }


def target_json(target) -> dict:
    """The target as JSON: `{"version": "2.3", "source": "from requirements.txt", "newest": null}`."""
    from tf24migrate.model.target import format_version

    return {
        "version": format_version(target.version),
        "source": target.source,
        "newest": format_version(target.newest),
    }


_GITHUB_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(finding: Finding, *, written: bool) -> str:
    """`::error file=...,line=...,col=...,endLine=...,endColumn=...,title=CODE::message`, escaped."""
    marker = fix_marker(finding, written=written)
    properties = {
        "file": finding.path or "<string>",
        "line": finding.line,
        "col": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
        "title": finding.code,
    }
    fields = ",".join(f"{key}={_github_property(str(value))}" for key, value in properties.items())
    message = f"{finding.name}: {marker + ' ' if marker else ''}{finding.message}"
    return f"::{_GITHUB_LEVELS[finding.severity]} {fields}::{_github_data(message)}"


def github_annotations(results: Sequence[FileResult]) -> str:
    """One annotation per finding, and one error per file that failed; each on its own line."""
    lines = []
    for result in results:
        if result.status is Status.FAILED:
            file = _github_property(result.path)
            lines.append(f"::error file={file},title=tf24migrate::{_github_data(result.error or 'failed')}")
        lines.extend(github_annotation(finding, written=result.written) for finding in result.findings)
    return "".join(line + "\n" for line in lines)
