"""`--output-format rdjson`: reviewdog's Diagnostic Format (its `DiagnosticResult` message as JSON),
one document on stdout, printed once the run is over.

reviewdog posts each diagnostic as a pull-request review comment, and a diagnostic's
`suggestions` as a one-click suggested change: each fixable finding (whose fix this run applies:
a preview, `--check`) carries the changed lines that cover it, as whole lines replaced (a range
from the first line's start to the start of the line after the last). Files are named from the
project's root (`cli.project_root`), as the pull request's diff names them. Positions are as
reviewdog reads them: lines from 1, columns from 1 counting UTF-8 bytes, the end exclusive. A
finding in a notebook names its cell in the message (a cell's lines are not the file's lines) and
has no range, nor a suggestion.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tf24migrate.cli.groups import Group
from tf24migrate.cli.hunks import changed_hunks, covering
from tf24migrate.cli.output import Summary
from tf24migrate.cli.project_root import from_root
from tf24migrate.cli.reporters import Reporter
from tf24migrate.cli.reporters.json import kept
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, Severity, Status
from tf24migrate.model.notes import SYNTAX_ERROR

_SEVERITIES = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"}


def _byte_column(line: str | None, column: int) -> int:
    """A 1-based column counting characters, as one counting the line's UTF-8 bytes."""
    if line is None:
        return column
    return len(line[: column - 1].encode("utf-8", "surrogatepass")) + 1


def _lines_of(result: FileResult) -> list[str] | None:
    """The file's lines as the run read them: from the result when it kept its source, else read
    again (the file is as the run left it: a preview writes nothing), else None (columns then
    count characters)."""
    if result.source is not None:
        return result.source.splitlines()
    from tf24migrate.run.files import UnreadableFile
    from tf24migrate.run.migrate_file import decode_file

    try:
        with open(result.path, "rb") as handle:
            return decode_file(result.path, handle.read()).text.splitlines()
    except (OSError, UnreadableFile):  # gone, or not text: columns count characters
        return None


def _position(lines: list[str] | None, line: int, column: int) -> dict:
    text = lines[line - 1] if lines is not None and 0 < line <= len(lines) else None
    return {"line": line, "column": _byte_column(text, column)}


def _diagnostic(finding: Finding, path: str, lines: list[str] | None, suggestions: list[dict]) -> dict:
    message = finding.message if finding.details is None else f"{finding.message}\n\n{finding.details}"
    location: dict = {"path": path}
    if finding.cell is None:
        location["range"] = {
            "start": _position(lines, finding.line, finding.column),
            "end": _position(lines, finding.end_line, finding.end_column),
        }
    else:
        message = f"cell {finding.cell}, line {finding.line}: {message}"
    diagnostic = {
        "message": message,
        "location": location,
        "severity": _SEVERITIES[finding.severity],
        "source": {"name": "tf24migrate"},
        "code": {"value": finding.code},
    }
    if suggestions:
        diagnostic["suggestions"] = suggestions
    return diagnostic


def rdjson_document(results: Sequence[FileResult], *, root: str | None = None) -> dict:
    """The `DiagnosticResult` of `results`: one diagnostic per finding (with its suggestion when
    its fix is applied by this run and not written), and one per file that failed unless a
    finding says why (a syntax error); files named from `root`."""
    diagnostics = []
    for result in results:
        path = from_root(result.path, root)
        if result.status is Status.FAILED and not any(f.code == SYNTAX_ERROR.code for f in result.findings):
            diagnostics.append(
                {
                    "message": result.error or "failed",
                    "location": {"path": path},
                    "severity": "ERROR",
                    "source": {"name": "tf24migrate"},
                }
            )
        if not result.findings:
            continue
        lines = _lines_of(result)
        hunks = None
        for finding in result.findings:
            suggestions = []
            if (
                finding.applied
                and not result.written
                and finding.cell is None
                and result.source is not None
                and result.code is not None
            ):
                if hunks is None:
                    hunks = changed_hunks(result.source, result.code)
                suggestions = [
                    {
                        "range": {
                            "start": {"line": hunk.start + 1, "column": 1},
                            "end": {"line": hunk.end + 1, "column": 1},
                        },
                        "text": hunk.text,
                    }
                    for hunk in covering(finding, hunks)
                ]
            diagnostics.append(
                _diagnostic(finding, from_root(finding.path or path, root), lines, suggestions)
            )
    return {"source": {"name": "tf24migrate"}, "diagnostics": diagnostics}


class RdjsonReporter(Reporter):
    def __init__(self, run, echo) -> None:
        super().__init__(run, echo)
        self.results: list[FileResult] = []

    def add(self, result: FileResult, group: Group) -> None:
        # The texts of a change make its suggestions; a source from stdin is not on disk.
        self.results.append(kept(result, stdin=self.run.stdin, texts=True))

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        document = rdjson_document(self.results, root=self.run.project_root)
        if interrupted:
            document["interrupted"] = True  # the diagnostics are those of the files done
        self.echo(json.dumps(document, indent=2), err=False)
        self.statistics_table(statistics, err=True)  # stdout holds the document alone
