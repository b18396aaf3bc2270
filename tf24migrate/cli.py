"""The `tf24migrate` command: options in, results out. It never transforms code itself.

Streams: with `--diff` (the default) stdout carries only the unified diffs, so it can be piped to
`git apply`, and findings go to stderr; with `--write` and `--check` findings go to stdout. With
`--output-format json` or `sarif`, stdout holds one JSON document and nothing else; with `github`,
only the workflow annotations (one line per finding). The summary line always goes to stderr.
"""

from __future__ import annotations

import enum
import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from tf24migrate import __version__
from tf24migrate.discovery import MissingPathError
from tf24migrate.findings import FileResult, Status
from tf24migrate.rules import UnknownRuleError, all_rules, find_rule, select_rules

EXIT_OK, EXIT_DUE, EXIT_ERROR = 0, 1, 2


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tf24migrate {__version__}")
        raise typer.Exit()


def _fail(message: str) -> typer.Exit:
    typer.echo(f"tf24migrate: error: {message}", err=True)
    return typer.Exit(EXIT_ERROR)


def _color_diff(diff: str, color: bool) -> str:
    if not color:
        return diff
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


def _list_rules() -> None:
    rows = [("code", "name", "fix", "default")]
    rows += [
        (r.code, r.name, r.fix.value if r.fix else "none", "yes" if r.default else "opt-in")
        for r in all_rules()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


def _explain(selector: str) -> None:
    rule = find_rule(selector)
    fix = rule.fix.value if rule.fix else "none (report only)"
    typer.echo(f"{rule.code} {rule.name}\n")
    typer.echo(
        f"Fix: {fix}. Severity: {rule.severity.value}. Runs by default: {'yes' if rule.default else 'no (opt-in)'}.\n"
    )
    typer.echo(rule.doc)


def main_command(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Files or folders to migrate.", show_default=False)
    ] = None,
    diff: Annotated[
        bool, typer.Option("--diff", help="Preview: print a unified diff, write nothing (the default).")
    ] = False,
    write: Annotated[bool, typer.Option("--write", help="Apply the changes in place.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if any file would change.")
    ] = False,
    select: Annotated[
        str | None, typer.Option(help="Rules to run: codes, names, prefixes or 'all', comma-separated.")
    ] = None,
    ignore: Annotated[str | None, typer.Option(help="Rules to leave out, as for --select.")] = None,
    unsafe_fixes: Annotated[
        bool, typer.Option("--unsafe-fixes", help="Also apply fixes that may change behaviour.")
    ] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--output-format", help="How to print findings.")
    ] = OutputFormat.text,
    list_rules: Annotated[bool, typer.Option("--list-rules", help="List every rule and exit.")] = False,
    explain: Annotated[
        str | None,
        typer.Option(help="Show a rule's documentation (code or name) and exit.", metavar="RULE"),
    ] = None,
    color: Annotated[
        bool | None,
        typer.Option(
            "--color/--no-color", help="Colour diffs (default: only on a terminal).", show_default=False
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print no summary line.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Migrate TensorFlow 2.0-2.3 code to the TensorFlow 2.4 API.

    Safe rewrites are applied; whatever cannot be rewritten safely is reported with what to do.
    """
    try:
        if list_rules:
            _list_rules()
            return
        if explain:
            _explain(explain)
            return
        rules = select_rules(select, ignore)
    except UnknownRuleError as error:
        raise _fail(str(error)) from None
    if sum((diff, write, check)) > 1:
        raise _fail("--diff, --write and --check exclude each other: choose one")
    if not paths:
        raise _fail("no paths given: name the files or folders to migrate, e.g. `tf24migrate --diff .`")
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise _fail(f"{', '.join(missing)}: no such file or folder")

    from tf24migrate.discovery import iter_source_files
    from tf24migrate.reporting import Summary, finding_line, github_annotations, json_document, unified_diff
    from tf24migrate.runner import HANDLERS, migrate_file

    mode = "write" if write else "check" if check else "diff"
    machine_output = output_format is not OutputFormat.text
    use_color = color if color is not None else (sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    findings_to_stderr = mode == "diff"
    results: list[FileResult] = []
    try:
        files = list(iter_source_files((str(p) for p in paths), tuple(HANDLERS)))
    except MissingPathError as error:
        raise _fail(str(error)) from None
    for path in files:
        result = migrate_file(path, rules, unsafe_fixes=unsafe_fixes, write=mode == "write")
        results.append(result)
        if machine_output:
            continue
        if result.status is Status.FAILED:
            typer.echo(f"{path}: error: {result.error}", err=True)
        if mode == "diff" and result.status is Status.CHANGED:
            typer.echo(
                _color_diff(unified_diff(path, result.source or "", result.code or ""), use_color),
                nl=False,
                color=use_color,
            )
        if mode == "check" and result.status is Status.CHANGED:
            typer.echo(f"would change: {path}")
        for finding in result.findings:
            typer.echo(finding_line(finding, written=result.written), err=findings_to_stderr)

    summary = Summary.of(results)
    if output_format is OutputFormat.json:
        document = json_document(results, __version__, with_diffs=mode != "write")
        typer.echo(json.dumps(document, indent=2))
    elif output_format is OutputFormat.github:
        typer.echo(github_annotations(results), nl=False)
    elif output_format is OutputFormat.sarif:
        from tf24migrate.sarif import sarif_log

        typer.echo(json.dumps(sarif_log(results, rules, __version__), indent=2))
    if not quiet:
        typer.echo(summary.line(written=mode == "write"), err=True)
    if summary.files_failed:
        raise typer.Exit(EXIT_ERROR)
    if (mode == "check" and summary.files_changed) or summary.unfixed_errors:
        raise typer.Exit(EXIT_DUE)


def main() -> None:
    _app()(prog_name="tf24migrate")


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})
    app.command(name="tf24migrate")(main_command)
    return app
