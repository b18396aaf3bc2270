"""`--output-format sarif`: the SARIF 2.1.0 log of a run, one rule descriptor per code, one
result per finding, printed once the run is over.

Code-scanning dashboards read it. Descriptors carry each rule's documentation as help text;
results carry their location and, when the fix was applied, the change as a SARIF `fix` (the
changed lines that cover the finding, from the file's diff). Files are named from the project's
root (`cli.project_root`), as `%SRCROOT%`-based URIs, so that a dashboard finds them in the
repository whatever folder the command ran in.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING
from urllib.parse import quote

from tf24migrate import __version__
from tf24migrate.catalogue.entries import entries
from tf24migrate.catalogue.selection import selected_codes
from tf24migrate.cli.groups import Group
from tf24migrate.cli.hunks import Hunk, changed_hunks, covering
from tf24migrate.cli.output import Summary
from tf24migrate.cli.project_root import under_root
from tf24migrate.cli.reporters import Reporter
from tf24migrate.cli.reporters.json import kept
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, Severity, Status
from tf24migrate.model.notes import NOTES, Note

if TYPE_CHECKING:
    from tf24migrate.catalogue.entry_table import Entry

SRCROOT = "%SRCROOT%"
SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
# By a severity's value: an entry names it as text, a finding and a note as a `Severity`.
_LEVELS: dict[str, str] = {
    Severity.ERROR.value: "error",
    Severity.WARNING.value: "warning",
    Severity.INFO.value: "note",
}


def artifact_uri(path: str) -> str:
    """A path as a SARIF URI: relative paths stay relative (to the working folder), in `/` form,
    percent-encoded (a name that is not UTF-8 by its bytes)."""
    pure = PurePath(path)
    if pure.is_absolute():
        return pure.as_uri()
    return quote(os.fsencode(pure.as_posix()), safe="/")


def _descriptor(rule: Entry | Note) -> dict:
    """A rule's descriptor, from its entry in the catalogue; a note (`tf24migrate.model.notes`) has
    one too, as a rule without a fix."""
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.doc},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": _LEVELS[rule.severity], "enabled": rule.default},
        "properties": {"fix": rule.fix or "none"},
    }


def _fix(finding: Finding, hunks: list[Hunk], location: dict) -> dict | None:
    """The changed lines that cover `finding`, as a SARIF fix; None when no change covers it."""
    replacements = [
        {
            "deletedRegion": {"charOffset": hunk.offset, "charLength": hunk.length},
            "insertedContent": {"text": hunk.text},
        }
        for hunk in covering(finding, hunks)
    ]
    if not replacements:
        return None
    return {
        "description": {"text": f"{finding.code} {finding.name}"},
        "artifactChanges": [{"artifactLocation": location, "replacements": replacements}],
    }


def _result(finding: Finding, rule_index: dict[str, int], fix: dict | None, location: dict) -> dict:
    region = {
        "startLine": finding.line,
        "startColumn": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
    }
    properties: dict[str, object] = {
        "fix": finding.fix.value if finding.fix else "none",
        "applied": finding.applied,
    }
    if finding.cell is not None:
        properties["cell"] = finding.cell
    if finding.evidence is not None:
        properties["evidence"] = finding.evidence
    result = {
        "ruleId": finding.code,
        "ruleIndex": rule_index[finding.code],
        "level": _LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": region,
                }
            }
        ],
        "properties": properties,
    }
    if finding.details:
        properties["details"] = finding.details
    if fix is not None:
        result["fixes"] = [fix]
    return result


def sarif_log(
    results: Sequence[FileResult],
    codes: Sequence[str],
    version: str,
    *,
    interrupted: bool = False,
    root: str | None = None,
) -> dict:
    """The SARIF log of one run over `results`, with a descriptor for the rule of each of `codes`
    (the rules run), and for every other rule or note that a finding names; an `interrupted` run
    is not successful; files named from `root` (`%SRCROOT%`), when there is one. Descriptors are
    the rules' entries (`catalogue.entries`): writing the log loads no rule, nor LibCST."""

    def location(path: str) -> dict:
        relative = None if root is None else under_root(path, root)
        if relative is None:
            return {"uri": artifact_uri(path)}
        return {"uri": artifact_uri(relative), "uriBaseId": SRCROOT}

    catalogue = {entry.code: entry for entry in entries()}
    run = dict.fromkeys(codes)
    others = {finding.code for result in results for finding in result.findings} - run.keys()
    descriptors: list[Entry | Note] = [catalogue[code] for code in run]
    descriptors += [entry for code, entry in catalogue.items() if code in others]
    descriptors += [note for note in NOTES if note.code in others]
    rule_index = {rule.code: index for index, rule in enumerate(descriptors)}
    sarif_results = []
    notifications: list[dict] = []
    if interrupted:
        notifications.append(
            {"level": "error", "message": {"text": "interrupted: the results are those of the files done"}}
        )
    for file_result in results:
        if file_result.status is Status.FAILED:
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": f"{file_result.path}: {file_result.error}"},
                    "locations": [{"physicalLocation": {"artifactLocation": location(file_result.path)}}],
                }
            )
        hunks = None
        for finding in file_result.findings:
            fix = None
            where = location(finding.path or "")
            if finding.applied and file_result.source is not None and file_result.code is not None:
                if hunks is None:
                    hunks = changed_hunks(file_result.source, file_result.code)
                fix = _fix(finding, hunks, where)
            sarif_results.append(_result(finding, rule_index, fix, where))
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "tf24migrate",
                        "version": version,
                        "semanticVersion": version,
                        "rules": [_descriptor(rule) for rule in descriptors],
                    }
                },
                "invocations": [
                    {"executionSuccessful": not notifications, "toolExecutionNotifications": notifications}
                ],
                "columnKind": "unicodeCodePoints",
                **({"originalUriBaseIds": {SRCROOT: {"uri": _folder_uri(root)}}} if root else {}),
                "results": sarif_results,
            }
        ],
    }


def _folder_uri(folder: str) -> str:
    """An absolute folder's `file:` URI, ending with `/` (as SARIF's base URIs must)."""
    uri = PurePath(folder).as_uri()
    return uri if uri.endswith("/") else uri + "/"


class SarifReporter(Reporter):
    def __init__(self, run, echo) -> None:
        super().__init__(run, echo)
        self.results: list[FileResult] = []

    def add(self, result: FileResult, group: Group) -> None:
        self.results.append(kept(result, stdin=self.run.stdin, texts=True))  # fixes as replacements

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        import json

        groups = self.run.groups
        codes = [code for group in groups for code in selected_codes(group.settings.rules)]
        log = sarif_log(self.results, codes, __version__, interrupted=interrupted, root=self.run.project_root)
        if len(groups) > 1:
            log["runs"][0]["invocations"][0]["properties"] = {"config": [g.json() for g in groups]}
        self.echo(json.dumps(log, indent=2), err=False)
        self.statistics_table(statistics, err=True)  # stdout holds the log alone
