"""Findings as the editor shows them: one diagnostic per finding (its code, the severity mapped
from the finding's, the rule's name and the message as the GitHub annotations spell them, a link
to the rule's page), the notes TF24001-TF24004 as hints, and one diagnostic for a document that
could not be migrated (it does not parse, its configuration cannot be used, it took too long).

A rule's page (`pages`) is what `tf24migrate --explain CODE` prints, so that each diagnostic's link
opens in the editor.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from tf24migrate.cli.output import fix_marker
from tf24migrate.model.findings import Finding, Severity
from tf24migrate.model.notes import NOTES_BY_CODE
from tf24migrate.server.documents import Lines
from tf24migrate.server.pages import page_path

SOURCE = "tf24migrate"
_SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
# How `run.migrate_file.migrate_loaded` places a syntax error in its message.
_PLACE = re.compile(r" at line (\d+), column (\d+)")


def diagnostic(finding: Finding, lines: Lines, pages: str | None) -> types.Diagnostic:
    """The diagnostic of `finding`, placed in `lines` (the text it was found in)."""
    marker = fix_marker(finding, written=False)
    return types.Diagnostic(
        range=types.Range(
            start=lines.at(finding.line, finding.column), end=lines.at(finding.end_line, finding.end_column)
        ),
        message=f"{finding.name}: {marker + ' ' if marker else ''}{finding.message}"
        + (f"\n{finding.details}" if finding.details else ""),
        severity=types.DiagnosticSeverity.Hint
        if finding.code in NOTES_BY_CODE
        else _SEVERITIES[finding.severity],
        code=finding.code,
        code_description=(
            types.CodeDescription(href=Path(page_path(pages, finding.code)).as_uri()) if pages else None
        ),
        source=SOURCE,
    )


def failure_diagnostic(failure: str, lines: Lines, code: str | None = None) -> types.Diagnostic:
    """The one diagnostic of a document that could not be migrated: at the syntax error the
    message names, else on the first line; `code`, the note it is (a syntax error's), if any."""
    place = _PLACE.search(failure)
    line, column = (int(place.group(1)), int(place.group(2))) if place else (1, 1)
    line = min(line, len(lines.starts))
    start = lines.at(line, column)
    end = lines.position(lines.line_end(line))
    if end.character <= start.character:  # nothing after it on its line: the whole line
        start = types.Position(line=start.line, character=0)
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=f"tf24migrate: {failure}",
        severity=types.DiagnosticSeverity.Warning,
        code=code,
        source=SOURCE,
    )
