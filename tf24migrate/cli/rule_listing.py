"""`--list-rules` and `--explain`: the rule catalogue printed from its data (`catalogue.entries`),
without LibCST or the rules' machinery."""

from __future__ import annotations

import typer

from tf24migrate.cli.invocation import OutputFormat


def list_rules(output_format: OutputFormat) -> None:
    from tf24migrate.catalogue.entries import entries

    if output_format is OutputFormat.JSON:
        import json

        catalogue = [
            {
                "code": r.code,
                "name": r.name,
                "fix": r.fix,
                "default": r.default,
                "severity": r.severity,
                "new_since": r.new_since,
                "old_removed": r.old_removed,
                "summary": r.summary,
            }
            for r in entries()
        ]
        typer.echo(json.dumps(catalogue, indent=2))
        return
    rows = [("code", "name", "fix", "default", "new since", "old removed")]
    rows += [
        (
            r.code,
            r.name,
            r.fix or "none",
            "yes" if r.default else "opt-in",
            r.new_since or "-",
            r.old_removed or "-",
        )
        for r in entries()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


def explain(selector: str) -> None:
    """A rule's documentation, or a note's (`model.notes`: TF24001 to TF24006)."""
    from tf24migrate.catalogue.entries import explanation, find_entry
    from tf24migrate.model.errors import UnknownRuleError

    try:
        typer.echo(explanation(find_entry(selector)))
    except UnknownRuleError:
        from tf24migrate.model.notes import NOTES

        wanted = selector.strip()
        note = next((n for n in NOTES if n.code == wanted.upper() or n.name == wanted.lower()), None)
        if note is None:
            raise
        typer.echo(f"{note.code} {note.name}\n")
        typer.echo(
            f"A note, not a rule: reported whenever its case occurs. Severity: {note.severity.value}.\n"
        )
        typer.echo(note.description)
