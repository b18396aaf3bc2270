"""`--output-format json`: one JSON document on stdout (summary, target, config, files, findings,
and with `--statistics` the table), printed once the run is over; nothing else goes to stdout."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from tf24migrate import __version__
from tf24migrate.cli.groups import Group, shown
from tf24migrate.cli.output import Summary, target_json
from tf24migrate.cli.reporters import Reporter
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, Status
from tf24migrate.sources.kinds import kind_of


def kept(result: FileResult, *, stdin: bool, texts: bool) -> FileResult:
    """What a structured document keeps of a result: its texts only where `texts` (a diff or a fix
    to describe), or for a source from stdin, whose document is the only place its code goes."""
    return (
        result
        if stdin or (texts and result.status is Status.CHANGED)
        else (dataclasses.replace(result, source=None, code=None))
    )


class JsonReporter(Reporter):
    def __init__(self, run, echo) -> None:
        super().__init__(run, echo)
        self.results: list[FileResult] = []
        self.config_of: dict[str, str | None] = {}  # each result's config, with several groups
        self.project_of: dict[str, str | None] = {}  # and the project its target was read from

    def add(self, result: FileResult, group: Group) -> None:
        self.results.append(kept(result, stdin=self.run.stdin, texts=not self.run.writes))
        if len(self.run.groups) > 1:
            self.config_of[result.path] = shown(group.config_path)
            self.project_of[result.path] = group.project_shown

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        run, groups = self.run, self.run.groups
        document = json_document(
            self.results,
            __version__,
            with_diffs=not run.writes,
            target=groups[0].target if len(groups) == 1 else None,
            statistics=statistics.json(written=run.writes) if run.statistics else None,
            with_code=run.stdin,
        )
        if interrupted:
            document["interrupted"] = True  # `files` holds only those done
        if len(groups) == 1:
            document["config"] = shown(groups[0].config_path)
        else:  # each file names its config and project; the list says each one's target
            for entry in document["files"]:
                entry["config"] = self.config_of[entry["path"]]
                entry["project"] = self.project_of[entry["path"]]
            document["config"] = [group.json() for group in groups]
        self.echo(json.dumps(document, indent=2), err=False)
        self.statistics_table(statistics, err=True)  # stdout holds the document alone


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
        "details": finding.details,
        "evidence": finding.evidence,
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
