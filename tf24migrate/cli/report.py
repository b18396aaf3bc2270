"""`--report FILE`: the migration report (as tf_upgrade_v2's `--reportfile`), written once the run is
over, Markdown or JSON by the file's extension (`.md`, `.json`).

Per file that changes, fails or keeps a finding: every change, with the rules whose fixes make it
and the lines before and after (a run of changed lines; a notebook's change is its diff, cell by
cell), and every finding left to the user. It says the same after `--write` (the changes written)
as in a preview (the changes due): unlike the output, which after a write has no texts left to
show. Each file's entry is made as its result comes, and only the entry is kept.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from tf24migrate import __version__
from tf24migrate.cli.hunks import changed_hunks, covering
from tf24migrate.cli.output import Summary, target_json
from tf24migrate.cli.reporters.json import finding_json
from tf24migrate.model.findings import FileResult, Status
from tf24migrate.sources.kinds import NOTEBOOK, kind_of

FORMATS = {".md": "markdown", ".markdown": "markdown", ".json": "json"}


def report_format(path: str) -> str | None:
    """`markdown` or `json`, by the report file's extension; None for another one."""
    return FORMATS.get(os.path.splitext(path)[1].lower())


@dataclass
class Report:
    """The entries of the files done, and what the run was."""

    written: bool  # the changes are on disk (`--write`), else due
    target: object | None = None  # the run's `Target` when it has one
    files: list[dict] = field(default_factory=list)

    def add(self, result: FileResult) -> None:
        changes = _changes(result)
        left = [
            finding_json(finding, written=result.written)
            for finding in result.findings
            if not finding.applied
        ]
        if not changes and not left and result.status is not Status.FAILED:
            return
        self.files.append(
            {
                "path": result.path,
                "status": result.status.value,
                "written": result.written,
                "error": result.error,
                "changes": changes,
                "left": left,
            }
        )

    def json(self, summary: Summary) -> dict:
        return {
            "tf24migrate": __version__,
            "written": self.written,
            **({"target": target_json(self.target)} if self.target is not None else {}),
            "summary": {
                "files_scanned": summary.files_scanned,
                "files_changed": summary.files_changed,
                "files_failed": summary.files_failed,
                "fixed": summary.fixed,
                "left": summary.findings - summary.fixed,
            },
            "files": self.files,
        }

    def text(self, summary: Summary, form: str) -> str:
        """The report as `form` (`markdown` or `json`) says."""
        document = self.json(summary)
        if form == "json":
            return json.dumps(document, indent=2) + "\n"
        return _markdown(document)


def _changes(result: FileResult) -> list[dict]:
    """Each change of a changed result: its lines before (1-based, first and last; an insertion
    has none: `end_line` is `line - 1`), the rules whose fixes make it, and the text before and
    after; a notebook's, its diff."""
    if result.status is not Status.CHANGED or result.source is None or result.code is None:
        return []
    applied = [finding for finding in result.findings if finding.applied]
    rules = [{"code": f.code, "name": f.name} for f in applied]
    if kind_of(result.path) is NOTEBOOK:
        diff = NOTEBOOK.diff(result.path, result.source, result.code)
        return [{"rules": _unique(rules), "diff": diff}]
    changes = []
    hunks = changed_hunks(result.source, result.code)
    for hunk in hunks:
        making = [{"code": f.code, "name": f.name} for f in applied if hunk in covering(f, hunks)]
        changes.append(
            {
                "line": hunk.start + 1,
                "end_line": hunk.end,
                "rules": _unique(making),
                "before": result.source[hunk.offset : hunk.offset + hunk.length],
                "after": hunk.text,
            }
        )
    return changes


def _unique(rules: list[dict]) -> list[dict]:
    return list({rule["code"]: rule for rule in rules}.values())


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _fence(text: str, language: str) -> list[str]:
    """`text` in a fenced block that none of its own lines can close."""
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return [f"{ticks}{language}", *text.rstrip("\n").split("\n"), ticks]


def _markdown(document: dict) -> str:
    summary = document["summary"]
    done = "written" if document["written"] else "due (nothing written)"
    lines = [
        "# tf24migrate migration report",
        "",
        f"tf24migrate {document['tf24migrate']}; changes {done}.",
    ]
    if "target" in document:
        target = document["target"]
        lines.append(f"Target: TensorFlow {target['version']} ({target['source']}).")
    changed, fixed = ("changed", "fixed") if document["written"] else ("to change", "fixable")
    lines += [
        "",
        f"{_plural(summary['files_scanned'], 'file')} scanned, {summary['files_changed']} {changed}, "
        f"{summary['files_failed']} failed; {_plural(summary['fixed'], 'finding')} {fixed}, "
        f"{summary['left']} left to you.",
    ]
    for entry in document["files"]:
        lines += [*([""] if lines[-1] else []), f"## {entry['path']}", ""]
        if entry["error"]:
            lines += [f"Failed: {entry['error']}", ""]
        for change in entry["changes"]:
            rules = ", ".join(f"{rule['code']} {rule['name']}" for rule in change["rules"]) or "(no finding)"
            if "diff" in change:
                lines += [f"- {rules}:", "", *_fence(change["diff"], "diff"), ""]
                continue
            where = (
                f"line {change['line']}"
                if change["end_line"] <= change["line"]
                else f"lines {change['line']}-{change['end_line']}"
            )
            before = [f"-{line}" for line in change["before"].splitlines()]
            after = [f"+{line}" for line in change["after"].splitlines()]
            lines += [f"- {where}, {rules}:", "", *_fence("\n".join([*before, *after]), "diff"), ""]
        if entry["left"]:
            lines += ["Left to you:", ""]
            for finding in entry["left"]:
                cell = f"cell {finding['cell']}, " if "cell" in finding else ""
                lines.append(
                    f"- {cell}line {finding['line']}, column {finding['column']}: {finding['code']} "
                    f"{finding['severity']}: {finding['message']}"
                )
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
