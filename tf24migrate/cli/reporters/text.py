"""`--output-format text` (the default): diffs, `would change:` lines, one line per finding (its
details indented below the first finding of each code that has them), and the `--statistics` table.

With `--diff` (and `-` alone) stdout carries the diffs (or the source) and finding lines go to
stderr; with `--check`, `--write` and `--interactive` finding lines go to stdout. With
`--statistics` only the table is printed (and files that failed), as ruff does.
"""

from __future__ import annotations

from tf24migrate.cli.groups import Group
from tf24migrate.cli.invocation import Mode
from tf24migrate.cli.output import Summary, finding_line, printable
from tf24migrate.cli.reporters import Reporter
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, Status
from tf24migrate.model.notes import SYNTAX_ERROR
from tf24migrate.sources.diff import diff_bytes
from tf24migrate.sources.kinds import kind_of


def color_diff(diff: str, color: bool) -> str:
    if not color:
        return diff
    import typer

    styled = []
    for line in diff.splitlines(keepends=True):
        if line.startswith(("+++", "---")):
            styled.append(typer.style(line, bold=True))
        elif line.startswith("+"):
            styled.append(typer.style(line, fg="green"))
        elif line.startswith("-"):
            styled.append(typer.style(line, fg="red"))
        elif line.startswith("@@"):
            styled.append(typer.style(line, fg="cyan"))
        else:
            styled.append(line)
    return "".join(styled)


def diff_of(result: FileResult, color: bool) -> str:
    """The diff of a changed result, for reading."""
    return color_diff(kind_of(result.path).diff(result.path, result.source or "", result.code or ""), color)


def file_diff(result: FileResult, color: bool) -> bytes | str:
    """The diff printed for a changed file: the bytes `git apply` needs (its encoding, its BOM)."""
    encoding = result.encoding or "utf-8"
    if encoding in ("utf-8", "utf8") or result.path.lower().endswith(".ipynb"):
        return diff_of(result, color)
    bom = "\ufeff" if encoding == "utf-8-sig" else ""
    diff = kind_of(result.path).diff(result.path, bom + (result.source or ""), bom + (result.code or ""))
    return diff_bytes(color_diff(diff, color), encoding)


def details_line(finding: Finding) -> str:
    """The why and the version story of a finding, indented under its line: printed once per code
    and text in a run (as `--explain` is, at length)."""
    return printable(f"    {finding.details}")


def failure_line(result: FileResult) -> str | None:
    """`path: error: why` for a file that failed, unless a finding says it (a syntax error)."""
    if result.status is not Status.FAILED or any(f.code == SYNTAX_ERROR.code for f in result.findings):
        return None
    return printable(f"{result.path}: error: {result.error}")


class TextReporter(Reporter):
    def __init__(self, run, echo) -> None:
        super().__init__(run, echo)
        self.explained: set[tuple[str, str]] = set()  # (code, details) already printed

    @property
    def needs_texts(self) -> bool:
        return self.run.mode is Mode.DIFF

    def add(self, result: FileResult, group: Group) -> None:
        run = self.run
        failure = failure_line(result)
        if failure is not None:
            self.echo(failure, err=True)
        if run.statistics:
            return
        if run.mode is Mode.DIFF and result.status is Status.CHANGED:
            self.echo(file_diff(result, run.color), err=False, nl=False, color=run.color)
        if run.mode is Mode.CHECK and result.status is Status.CHANGED:
            self.echo(f"would change: {printable(result.path)}", err=run.stdin)
        for finding in result.findings:
            self.echo(finding_line(finding, written=result.written), err=run.findings_to_stderr)
            if finding.details and (finding.code, finding.details) not in self.explained:
                self.explained.add((finding.code, finding.details))
                self.echo(details_line(finding), err=run.findings_to_stderr)

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        self.statistics_table(statistics, err=self.run.stdin)  # stdout holds nothing else, but a source
