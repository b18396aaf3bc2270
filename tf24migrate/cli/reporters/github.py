"""`--output-format github`: GitHub Actions workflow annotations on stdout, one line per finding
and one per file that failed, printed as the results come; files are named from the project's root
(`cli.project_root`), so that the annotations attach to a pull request's diff. With `--diff` given
(or `--check --diff`) each changed file's diff comes first, on stdout too: one run gives the
annotations and the patch (a workflow command is a line of its own starting with `::`, which no
diff line does, and `git apply` skips the lines between two files' diffs)."""

from __future__ import annotations

from collections.abc import Sequence

from tf24migrate.cli.groups import Group
from tf24migrate.cli.invocation import Mode
from tf24migrate.cli.output import Summary, fix_marker
from tf24migrate.cli.project_root import from_root
from tf24migrate.cli.reporters import Reporter
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, Severity, Status
from tf24migrate.model.notes import SYNTAX_ERROR


class GithubReporter(Reporter):
    @property
    def needs_texts(self) -> bool:
        return self.run.mode is Mode.DIFF and self.run.diff_asked and not self.run.statistics

    def add(self, result: FileResult, group: Group) -> None:
        if self.needs_texts and result.status is Status.CHANGED and not self.run.stdin:
            from tf24migrate.cli.reporters.text import file_diff

            self.echo(file_diff(result, color=False), err=False, nl=False)
        self.echo(github_annotations([result], root=self.run.project_root), err=False, nl=False)

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        self.statistics_table(statistics, err=True)  # stdout holds the annotations alone


_GITHUB_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(finding: Finding, *, written: bool, root: str | None = None) -> str:
    """`::error file=...,line=...,col=...,endLine=...,endColumn=...,title=CODE::message`, escaped;
    the file named from `root` (`cli.project_root.from_root`)."""
    marker = fix_marker(finding, written=written)
    properties = {
        "file": from_root(finding.path or "<string>", root),
        "line": finding.line,
        "col": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
        "title": finding.code,
    }
    fields = ",".join(f"{key}={_github_property(str(value))}" for key, value in properties.items())
    message = f"{finding.name}: {marker + ' ' if marker else ''}{finding.message}"
    return f"::{_GITHUB_LEVELS[finding.severity]} {fields}::{_github_data(message)}"


def github_annotations(results: Sequence[FileResult], *, root: str | None = None) -> str:
    """One annotation per finding, and one error per file that failed (unless a finding says why:
    a syntax error); each on its own line, naming files from `root`."""
    lines = []
    for result in results:
        if result.status is Status.FAILED and not any(f.code == SYNTAX_ERROR.code for f in result.findings):
            file = _github_property(from_root(result.path, root))
            lines.append(f"::error file={file},title=tf24migrate::{_github_data(result.error or 'failed')}")
        lines.extend(
            github_annotation(finding, written=result.written, root=root) for finding in result.findings
        )
    return "".join(line + "\n" for line in lines)
