"""`--output-format github`: GitHub Actions workflow annotations on stdout, one line per finding
and one per file that failed, printed as the results come."""

from __future__ import annotations

from collections.abc import Sequence

from tf24migrate.cli.groups import Group
from tf24migrate.cli.output import Summary, fix_marker
from tf24migrate.cli.reporters import Reporter
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, Severity, Status
from tf24migrate.model.notes import SYNTAX_ERROR


class GithubReporter(Reporter):
    needs_texts = False

    def add(self, result: FileResult, group: Group) -> None:
        self.echo(github_annotations([result]), err=False, nl=False)

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        self.statistics_table(statistics, err=True)  # stdout holds the annotations alone


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
    """One annotation per finding, and one error per file that failed (unless a finding says why:
    a syntax error); each on its own line."""
    lines = []
    for result in results:
        if result.status is Status.FAILED and not any(f.code == SYNTAX_ERROR.code for f in result.findings):
            file = _github_property(result.path)
            lines.append(f"::error file={file},title=tf24migrate::{_github_data(result.error or 'failed')}")
        lines.extend(github_annotation(finding, written=result.written) for finding in result.findings)
    return "".join(line + "\n" for line in lines)
