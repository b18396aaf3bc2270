"""The `tf24migrate` command: options in, results out. It never transforms code itself.

Streams: with `--diff` (the default) stdout carries only the unified diffs, so it can be piped to
`git apply`, and findings go to stderr; with `--write` and `--check` findings go to stdout. With
`--output-format json` or `sarif`, stdout holds one JSON document and nothing else; with `github`,
only the workflow annotations (one line per finding). With `-` as the path, stdout carries the
migrated source (with `--diff`, its diff; in JSON, the file entry's `code`) and findings go to stderr. The summary line and the progress bar go to stderr;
`--interactive` shows each diff and its question on stdout. This module parses the options and
settles them with pyproject.toml (`run.config`); `session` prints the run.
"""

from __future__ import annotations

import enum
import os
import sys
from typing import Annotated

import typer

from tf24migrate import __version__
from tf24migrate.catalogue.selection import RuleSelection, UnknownRuleError, all_rules, find_rule
from tf24migrate.cli.exit_codes import EXIT_ERROR, EXIT_OK
from tf24migrate.model.target import TargetVersionError, target_of


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
    from tf24migrate.cli.output import printable

    typer.echo(printable(f"tf24migrate: error: {message}"), err=True)
    return typer.Exit(EXIT_ERROR)


def _list_rules(output_format: OutputFormat) -> None:
    if output_format is OutputFormat.json:
        import json

        catalogue = [
            {
                "code": r.code,
                "name": r.name,
                "fix": r.fix.value if r.fix else None,
                "default": r.default,
                "severity": r.severity.value,
                "new_since": r.new_since,
                "old_removed": r.old_removed,
                "summary": r.summary,
            }
            for r in all_rules()
        ]
        typer.echo(json.dumps(catalogue, indent=2))
        return
    rows = [("code", "name", "fix", "default", "new since", "old removed")]
    rows += [
        (
            r.code,
            r.name,
            r.fix.value if r.fix else "none",
            "yes" if r.default else "opt-in",
            r.new_since or "-",
            r.old_removed or "-",
        )
        for r in all_rules()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


def _explain(selector: str) -> None:
    from tf24migrate.catalogue.docs import explanation

    typer.echo(explanation(find_rule(selector)))


def _split_globs(value: list[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(part.strip() for item in value for part in item.split(",") if part.strip())


def _read_files_from(source: str) -> list[str]:
    """The paths listed one a line (as bytes: a name need not be UTF-8); only the line end is
    taken off, so a name may start or end with spaces; blank lines are skipped."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as handle:
                data = handle.read()
    except OSError as error:
        raise _fail(f"--files-from {source}: cannot read: {error.strerror or error}") from None
    lines = (line.removesuffix(b"\r") for line in data.split(b"\n"))
    return [os.fsdecode(line) for line in lines if line.strip()]


def _without_other_kinds(paths: list[str]) -> list[str]:
    """`paths` without the files named of a kind the tool does not handle (`sources.kinds.handles`),
    each named on stderr; folders are walked for the right kinds anyway."""
    from tf24migrate.sources.kinds import handles

    kept = []
    for path in paths:
        if path != "-" and os.path.isfile(path) and not handles(path):
            typer.echo(
                f"tf24migrate: {path}: skipped: not a file tf24migrate handles "
                f"(Python .py/.pyi, notebooks .ipynb, C/C++ sources)",
                err=True,
            )
        else:
            kept.append(path)
    return kept


def main_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files or folders to migrate; `-` reads one source from stdin and writes it to stdout.",
            show_default=False,
        ),
    ] = None,
    diff: Annotated[
        bool, typer.Option("--diff", help="Preview: print a unified diff, write nothing (the default).")
    ] = False,
    write: Annotated[bool, typer.Option("--write", help="Apply the changes in place.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if any file would change.")
    ] = False,
    interactive: Annotated[
        bool,
        typer.Option(
            "--interactive",
            "-i",
            help="Show each change and ask whether to apply it (y/n/a/q); write the accepted ones.",
        ),
    ] = False,
    select: Annotated[
        str | None, typer.Option(help="Rules to run: codes, names, prefixes or 'all', comma-separated.")
    ] = None,
    ignore: Annotated[str | None, typer.Option(help="Rules to leave out, as for --select.")] = None,
    target_version: Annotated[
        str | None,
        typer.Option(
            help="The oldest TensorFlow the code must still run on (default: read from the project's "
            "requirements, else 2.4); fixes that need a newer one are reported, not applied.",
            metavar="X.Y",
        ),
    ] = None,
    unsafe_fixes: Annotated[
        bool | None,
        typer.Option(
            "--unsafe-fixes/--no-unsafe-fixes",
            help="Also apply fixes that may change behaviour.",
            show_default=False,
        ),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            help="Globs (gitignore style) to leave out of folder walks, replacing the defaults "
            "(virtual environments, build, dist, ...).",
            metavar="GLOBS",
        ),
    ] = None,
    extend_exclude: Annotated[
        list[str] | None, typer.Option(help="Globs to leave out, on top of --exclude.", metavar="GLOBS")
    ] = None,
    no_ignore: Annotated[
        bool, typer.Option("--no-ignore", help="Do not honour .gitignore and .git/info/exclude.")
    ] = False,
    force_exclude: Annotated[
        bool | None,
        typer.Option(
            "--force-exclude/--no-force-exclude",
            help="Apply the excludes to paths named on the command line too (for pre-commit).",
        ),
    ] = None,
    files_from: Annotated[
        str | None,
        typer.Option(
            help="Also process the paths listed in FILE, one per line (`-`: stdin).", metavar="FILE"
        ),
    ] = None,
    stdin_filename: Annotated[
        str | None, typer.Option(help="The name to report for a source read from stdin (`-`).")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help="Worker processes (default: all cores; 1: no workers).", min=0),
    ] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--output-format", help="How to print findings.")
    ] = OutputFormat.text,
    statistics: Annotated[
        bool,
        typer.Option("--statistics", help="Print, per rule, the sites fixed and reported, not each finding."),
    ] = False,
    exit_zero: Annotated[
        bool,
        typer.Option(
            "--exit-zero", help="Exit 0 even when changes or findings are due (2 still means a failure)."
        ),
    ] = False,
    exit_non_zero_on_fix: Annotated[
        bool,
        typer.Option(
            "--exit-non-zero-on-fix", help="Exit 1 when --write fixed something, even if nothing is left."
        ),
    ] = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Neither read nor write the result cache.")
    ] = False,
    cache_dir: Annotated[
        str | None,
        typer.Option(
            help="Where to keep the result cache (default: .tf24migrate_cache at the project root; "
            "also TF24MIGRATE_CACHE_DIR).",
            metavar="DIR",
        ),
    ] = None,
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
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print no summary line and no progress bar.")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Migrate TensorFlow 2.0-2.3 code to the TensorFlow 2.4 API.

    Safe rewrites are applied; whatever cannot be rewritten safely is reported with what to do.
    Settings may also live in pyproject.toml, in the tool.tf24migrate table; the command line wins.
    `tf24migrate server` starts the language server for editors.
    """
    from tf24migrate.cli.output import printable
    from tf24migrate.run.config import ConfigError
    from tf24migrate.run.discovery import path_problem

    paths = list(paths or [])
    try:
        if list_rules:
            _list_rules(output_format)
            return
        if explain:
            _explain(explain)
            return
        RuleSelection(select, ignore, target_of(target_version, "--target-version")).check()
    except (UnknownRuleError, TargetVersionError) as error:
        raise _fail(str(error)) from None
    if sum((diff, write, check, interactive)) > 1:
        raise _fail("--diff, --write, --check and --interactive exclude each other: choose one")
    if exit_zero and exit_non_zero_on_fix:
        raise _fail("--exit-zero and --exit-non-zero-on-fix exclude each other: choose one")
    if files_from:
        paths += _read_files_from(files_from)
    if "-" in paths and (len(paths) > 1 or files_from == "-"):
        raise _fail("`-` (a source on stdin) cannot be combined with other paths or --files-from -")
    if interactive and output_format is not OutputFormat.text:
        raise _fail("--interactive asks on the terminal: it works with --output-format text only")
    if paths == ["-"] and interactive:
        raise _fail("--interactive needs files to write: it cannot work on a source read from stdin")
    if not paths:
        raise _fail("no paths given: name the files or folders to migrate, e.g. `tf24migrate --diff .`")
    # A path that is not a file or folder is named, with why, and left out; the others are
    # processed, and the run exits 2.
    problems = {p: problem for p in paths if p != "-" and (problem := path_problem(p)) is not None}
    for path, problem in problems.items():
        typer.echo(printable(f"tf24migrate: {path}: {problem}"), err=True)
    missing = list(problems)
    paths = [p for p in paths if p not in missing]
    if not paths:
        raise typer.Exit(EXIT_ERROR)
    paths = _without_other_kinds(paths)
    if not paths:
        raise typer.Exit(EXIT_ERROR if missing else EXIT_OK)

    from tf24migrate.cli.groups import Options, groups_of
    from tf24migrate.cli.session import Run, migrate_stdin, run_files
    from tf24migrate.run.discovery import MissingPathError

    options = Options(
        select=select,
        ignore=ignore,
        target_version=target_version,
        unsafe_fixes=unsafe_fixes,
        exclude=_split_globs(exclude),
        extend_exclude=_split_globs(extend_exclude),
        no_ignore=no_ignore,
        force_exclude=force_exclude,
        jobs=jobs,
        cache_dir=cache_dir,
        no_cache=no_cache,
    )
    try:  # each path's own pyproject.toml; a source on stdin: its name's, else the current folder's
        groups = groups_of([stdin_filename or "."] if paths == ["-"] else paths, options)
    except (UnknownRuleError, ConfigError, TargetVersionError) as error:
        raise _fail(str(error)) from None
    run = Run(
        # `-` alone prints the migrated source (editors pipe through it); `--diff -` its diff.
        mode="write"
        if write or (paths == ["-"] and not (diff or check))
        else "check"
        if check
        else "interactive"
        if interactive
        else "diff",
        groups=groups,
        output_format=output_format.value,
        color=color if color is not None else (sys.stdout.isatty() and "NO_COLOR" not in os.environ),
        quiet=quiet,
        statistics=statistics,
        exit_zero=exit_zero,
        paths_missing=len(missing),
        exit_non_zero_on_fix=exit_non_zero_on_fix,
    )
    if paths == ["-"]:
        exit_code = migrate_stdin(run, stdin_filename or "<stdin>")
    else:
        try:
            exit_code = run_files(run)
        except MissingPathError as error:
            raise _fail(str(error)) from None
    raise typer.Exit(exit_code)


def server_command(
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Speak LSP over stdin and stdout (the default, and the only way).")
    ] = False,
) -> None:
    r"""Start the language server: findings shown in the editor, fixes offered as code actions.

    Needs the `server` extra: pip install "tf24migrate\[server]".
    """
    try:
        from tf24migrate.server.protocol import serve
    except ImportError as error:
        missing = (error.name or "pygls").split(".")[0]
        raise _fail(
            f"the language server needs the `server` extra ({missing} is missing): "
            'pip install "tf24migrate[server]"'
        ) from None
    serve()


def main() -> None:
    if sys.argv[1:2] == ["server"]:  # a folder named `server` is migrated as `./server`
        app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})
        app.command()(server_command)
        app(args=sys.argv[2:], prog_name="tf24migrate server")
        return
    _app()(prog_name="tf24migrate")


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})
    app.command(name="tf24migrate")(main_command)
    return app
