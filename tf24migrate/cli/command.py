"""The `tf24migrate` command: options in, results out. It never transforms code itself.

Streams: with `--diff` (the default) stdout carries only the unified diffs, so it can be piped to
`git apply`, and findings go to stderr; with `--write` and `--check` findings go to stdout. With
`--output-format json`, `sarif` or `rdjson`, stdout holds one JSON document and nothing else; with
`github`, only the workflow annotations (one line per finding), after each file's diff when
`--diff` is given. With `-` as the path, stdout carries the
migrated source (with `--diff`, its diff; in JSON, the file entry's `code`) and findings go to
stderr. The summary line and the progress bar go to stderr; `--interactive` shows each diff and
its question on stdout. This module parses the options and settles them with pyproject.toml
(`run.config`, `cli.groups`); `session` prints the run. Every usage error is one line,
`tf24migrate: error: ...`, exit 2.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import Annotated

import typer

from tf24migrate import __version__
from tf24migrate.cli import rule_listing
from tf24migrate.cli.exit_codes import EXIT_ERROR, EXIT_OK
from tf24migrate.cli.invocation import Mode, OutputFormat, Run
from tf24migrate.cli.options import FIXES_PANEL as _FIXES
from tf24migrate.cli.options import ExtendSelect, Ignore, Select, TargetVersion, UnsafeFixes
from tf24migrate.cli.usage import UsageErrorsInOneLine, fail
from tf24migrate.cli.usage import split_values as _split
from tf24migrate.model.tricks import switched_off

_FILES, _OUTPUT, _CACHE = "File selection", "Output", "Cache"
_ADOPTION = "Gradual adoption"


def _globs(help: str):
    """A repeatable option of gitignore-style globs, of the file selection panel."""
    return typer.Option(help=help, metavar="GLOBS", rich_help_panel=_FILES)


def _valued(help: str, metavar: str, panel: str):
    """An option taking one value (a file, a folder, a reference), of the panel `panel`."""
    return typer.Option(help=help, metavar=metavar, rich_help_panel=panel)


def _alone(ctx: typer.Context, name: str) -> None:
    """A usage error when an option that does not change what `name` (`--list-rules`, `--explain`)
    prints is given with it: it would be ignored without a word."""
    takes = {name, "output_format"} if name == "list_rules" else {name}
    for param in ctx.command.params:
        if param.name in takes or param.name is None:
            continue
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name == "COMMANDLINE":
            this = param.opts[0] if param.opts[0].startswith("-") else "path"
            option = "--list-rules" if name == "list_rules" else "--explain"
            does = "lists the rules" if name == "list_rules" else "shows a rule's documentation"
            raise fail(f"{option} {does} and exits: {this} does not change that; run them apart")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tf24migrate {__version__}")
        raise typer.Exit()


_FILES_FROM_MAX_MB = 1024


def _read_files_from(source: str) -> list[str]:
    """The paths listed one a line (as bytes: a name need not be UTF-8); only the line end is
    taken off, so a name may start or end with spaces; blank lines are skipped."""
    chunks: list[bytes] = []
    try:
        with contextlib.ExitStack() as stack:
            handle = sys.stdin.buffer if source == "-" else stack.enter_context(open(source, "rb"))
            while chunk := handle.read(1 << 20):
                if b"\0" in chunk:  # /dev/zero, a binary file: no path holds a NUL byte
                    line = b"".join(chunks).count(b"\n") + chunk[: chunk.index(b"\0")].count(b"\n") + 1
                    raise fail(
                        f"--files-from {source}: line {line} holds a NUL byte: list one path a line, as text"
                    )
                chunks.append(chunk)
                if len(chunks) > _FILES_FROM_MAX_MB:
                    raise fail(
                        f"--files-from {source}: larger than {_FILES_FROM_MAX_MB} MB: not a list of paths"
                    )
    except OSError as error:
        raise fail(f"--files-from {source}: cannot read: {error.strerror or error}") from None
    lines = (line.removesuffix(b"\r") for line in b"".join(chunks).split(b"\n"))
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


def _check_out(out: str, paths: list[str], other_mode: bool) -> None:
    """A usage error unless `--out` names a new or empty folder outside the one folder named,
    without another mode or way to name files."""
    from tf24migrate.run.out_tree import OutTreeError, check_folders

    if other_mode or paths == ["-"]:
        raise fail(
            "--out writes the migrated copy of one folder: it excludes --diff, --check, --interactive, "
            "--add-noqa, --files-from, --since and `-`"
        )
    if len(paths) != 1:
        raise fail(f"--out copies one folder: {len(paths)} paths named: name the folder to migrate")
    try:
        check_folders(paths[0], out)
    except OutTreeError as error:
        raise fail(str(error)) from None


def _changed_since(ref: str, paths: list[str], lines: bool) -> tuple[list[str], dict | None]:
    """The files of the kinds the tool handles changed since the merge base with `ref` (`cli.since`)
    under one of `paths`, and with `lines`, the lines each changes (None: every line)."""
    from tf24migrate.cli.since import changed_files, changed_lines
    from tf24migrate.sources.kinds import handles

    base, tracked, untracked = changed_files(ref)
    named = [os.path.abspath(path) for path in paths]

    def wanted(file: str) -> bool:
        full = os.path.abspath(file)
        return handles(file) and any(full == p or full.startswith(p.rstrip(os.sep) + os.sep) for p in named)

    tracked, untracked = [f for f in tracked if wanted(f)], [f for f in untracked if wanted(f)]
    if not lines:
        return [*tracked, *untracked], None
    changed: dict[str, frozenset[int] | None] = dict(changed_lines(base, tracked))
    changed.update((os.path.abspath(file), None) for file in untracked)
    return [*tracked, *untracked], changed


def _mode(diff: bool, write: bool, check: bool, interactive: bool, stdin: bool) -> Mode:
    """The mode the flags ask for. `--check --diff` is the preview that exits 1 when something
    is due, which every preview does (as `ruff check --diff` and `black --check --diff`);
    `-` alone prints the migrated source (editors pipe through it)."""
    if check and diff:
        check = False
    if sum((diff, write, check, interactive)) > 1:
        raise fail("--diff, --write, --check and --interactive exclude each other (but --check --diff)")
    if write or (stdin and not (diff or check)):
        return Mode.WRITE
    if check:
        return Mode.CHECK
    return Mode.INTERACTIVE if interactive else Mode.DIFF


def main_command(
    ctx: typer.Context,
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files or folders to migrate (default: the current folder); `-` reads one source "
            "from stdin and writes it to stdout.",
            show_default=False,
        ),
    ] = None,
    diff: Annotated[
        bool,
        typer.Option("--diff", help="Preview: print the diffs, write nothing (the default); exit 1 if due."),
    ] = False,
    write: Annotated[bool, typer.Option("--write", help="Apply the changes in place.")] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; list the files that would change; exit 1 if any.")
    ] = False,
    interactive: Annotated[
        bool,
        typer.Option("--interactive", "-i", help="Show each change and ask whether to apply it (y/n/a/q)."),
    ] = False,
    add_noqa: Annotated[
        bool,
        typer.Option(
            "--add-noqa",
            help="Mark each finding left `# noqa: CODE`.",
            rich_help_panel=_ADOPTION,
        ),
    ] = False,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    target_version: TargetVersion = None,
    unsafe_fixes: UnsafeFixes = None,
    exit_zero: Annotated[
        bool,
        typer.Option(
            "--exit-zero",
            help="Exit 0 when something is due (2 still means a failure).",
            rich_help_panel=_FIXES,
        ),
    ] = False,
    exit_non_zero_on_fix: Annotated[
        bool,
        typer.Option("--exit-non-zero-on-fix", help="Exit 1 when a fix was written.", rich_help_panel=_FIXES),
    ] = False,
    exclude: Annotated[
        list[str] | None,
        _globs("Globs to leave out of folder walks, replacing the defaults (venv, build, ...)."),
    ] = None,
    extend_exclude: Annotated[list[str] | None, _globs("Globs to leave out, on top of --exclude.")] = None,
    no_ignore: Annotated[
        bool,
        typer.Option(
            "--no-ignore",
            help="Do not honour .gitignore and .git/info/exclude.",
            rich_help_panel=_FILES,
        ),
    ] = False,
    no_respect_gitignore: Annotated[
        bool, typer.Option("--no-respect-gitignore", hidden=True, help="--no-ignore, as ruff spells it.")
    ] = False,
    force_exclude: Annotated[
        bool | None,
        typer.Option(
            "--force-exclude/--no-force-exclude",
            help="Apply the excludes to named paths too (pre-commit).",
            rich_help_panel=_FILES,
        ),
    ] = None,
    files_from: Annotated[
        str | None, _valued("Also the paths listed in FILE, one a line (`-`: stdin).", "FILE", _FILES)
    ] = None,
    since: Annotated[
        str | None,
        _valued("Only files changed since REF's merge base.", "REF", _ADOPTION),
    ] = None,
    only_changed_lines: Annotated[
        bool,
        typer.Option(
            "--only-changed-lines",
            help="Only the findings on lines --since changed.",
            rich_help_panel=_ADOPTION,
        ),
    ] = False,
    stdin_filename: Annotated[
        str | None,
        typer.Option(
            help="The name of a source read from stdin (`-`).", metavar="NAME", rich_help_panel=_FILES
        ),
    ] = None,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--output-format",
            help="text, json, github (annotations), sarif or rdjson (reviewdog).",
            metavar="FORMAT",
            rich_help_panel=_OUTPUT,
        ),
    ] = OutputFormat.TEXT,
    output_file: Annotated[
        str | None,
        typer.Option(
            "--output-file",
            "-o",
            help="Write the output to FILE, not stdout.",
            metavar="FILE",
            rich_help_panel=_OUTPUT,
        ),
    ] = None,
    out: Annotated[
        str | None,
        _valued("Write the migrated copy to a new folder DIR.", "DIR", _ADOPTION),
    ] = None,
    report: Annotated[
        str | None,
        _valued("Write a migration report (.md or .json).", "FILE", _OUTPUT),
    ] = None,
    project_root: Annotated[
        str | None,
        _valued("github, sarif, rdjson: name files from DIR (default: the git top).", "DIR", _OUTPUT),
    ] = None,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics",
            help="Print only a table: per rule, sites fixed and reported.",
            rich_help_panel=_OUTPUT,
        ),
    ] = False,
    color: Annotated[
        bool | None,
        typer.Option(
            "--color/--no-color",
            help="Colour diffs (default: on a terminal).",
            show_default=False,
            rich_help_panel=_OUTPUT,
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="No summary line, no progress bar.", rich_help_panel=_OUTPUT),
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", help="Worker processes (default: all cores; 1: none).", min=0, metavar="N"
        ),
    ] = None,
    no_cache: Annotated[
        bool,
        typer.Option("--no-cache", help="Neither read nor write the result cache.", rich_help_panel=_CACHE),
    ] = False,
    cache_dir: Annotated[
        str | None,
        typer.Option(
            help="The result cache's folder (default: .tf24migrate_cache at the project root; "
            "also TF24MIGRATE_CACHE_DIR).",
            metavar="DIR",
            rich_help_panel=_CACHE,
        ),
    ] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Say each path's settings and its files.")
    ] = False,
    show_settings: Annotated[
        bool, typer.Option("--show-settings", help="Print each path's settings and exit.")
    ] = False,
    show_files: Annotated[
        bool, typer.Option("--show-files", help="Print the files to migrate and exit.")
    ] = False,
    list_rules: Annotated[bool, typer.Option("--list-rules", help="List every rule and exit.")] = False,
    explain: Annotated[
        str | None,
        typer.Option(help="Show a rule's documentation (code or name) and exit.", metavar="RULE"),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Migrate TensorFlow 2.0-2.3 code to the TensorFlow 2.4 API.

    Safe rewrites are applied; the rest is reported with what to do. Settings: pyproject.toml, tool.tf24migrate table.

    Exit codes: 0 nothing due; 1 changes or error findings due (or left); 2 usage error, or a file failed.

    Also: `tf24migrate server` (editors), `tf24migrate verify -- CMD` (runs CMD).
    """
    from tf24migrate.cli.output import printable
    from tf24migrate.cli.report import report_format
    from tf24migrate.model.errors import UnknownRuleError
    from tf24migrate.model.target import TargetVersionError, target_of
    from tf24migrate.run.config import ConfigError
    from tf24migrate.run.discovery import path_problem

    select_, extend_select_, ignore_ = _split(select), _split(extend_select), _split(ignore)
    try:
        if list_rules or explain:
            _alone(ctx, "list_rules" if list_rules else "explain")
        if list_rules:
            rule_listing.list_rules(output_format)
            return
        if explain:
            rule_listing.explain(explain)
            return
        target_of(target_version, "--target-version")
    except (UnknownRuleError, TargetVersionError) as error:
        raise fail(str(error)) from None
    paths = list(paths or [])
    mode = _mode(diff, write, check, interactive, stdin=paths == ["-"])
    if report is not None and report_format(report) is None:
        raise fail(f"--report {report}: name a .md (Markdown) or .json file: the extension says the format")
    if output_file is not None and mode is Mode.INTERACTIVE:
        raise fail("--interactive asks on the terminal: it cannot write its output to --output-file")
    if project_root is not None and not os.path.isdir(project_root):
        raise fail(f"--project-root {project_root}: not a folder: name the repository's top folder")
    if add_noqa and (diff or write or interactive or paths == ["-"]):
        raise fail(
            "--add-noqa writes comments and fixes nothing: it excludes --diff, --write, --interactive and `-`"
        )
    if add_noqa:
        mode = Mode.CHECK
    if exit_zero and exit_non_zero_on_fix:
        raise fail("--exit-zero and --exit-non-zero-on-fix exclude each other: choose one")
    if only_changed_lines and since is None:
        raise fail("--only-changed-lines needs --since REF: the lines changed since the merge base with REF")
    if since is not None and (paths == ["-"] or files_from):
        raise fail("--since chooses the files: it cannot be combined with `-` or --files-from")
    listed = _read_files_from(files_from) if files_from else []
    if not paths and not files_from:
        paths = ["."]  # as ruff and black: the current folder
    if out is not None:
        _check_out(
            out,
            paths,
            diff or check or interactive or add_noqa or files_from is not None or since is not None,
        )
        mode = Mode.WRITE  # into the copy: the files' own are left as they are
    lines_changed = None
    if since is not None:
        for path in paths:
            if (problem := path_problem(path)) is not None:
                raise fail(f"{path}: {problem}")
        paths, lines_changed = _changed_since(since, paths, only_changed_lines)
        if not paths:
            if not quiet:
                typer.echo(
                    f"tf24migrate: no file to migrate changed since the merge base with {since}", err=True
                )
            raise typer.Exit(EXIT_OK)
        if force_exclude is None:
            force_exclude = True  # the files found by git, excluded as a folder's walk would
    if "-" in paths and (len(paths) > 1 or files_from == "-"):
        raise fail("`-` (a source on stdin) cannot be combined with other paths or --files-from -")
    if mode is Mode.INTERACTIVE and output_format is not OutputFormat.TEXT:
        raise fail("--interactive asks on the terminal: it works with --output-format text only")
    if paths == ["-"] and interactive:
        raise fail("--interactive needs files to write: it cannot work on a source read from stdin")
    # A path named that is not a file or folder is named, with why, and left out; the others are
    # processed, and the run exits 2. A path listed by --files-from that does not exist (a file
    # the branch deletes) is a note.
    problems = {p: problem for p in paths if p != "-" and (problem := path_problem(p)) is not None}
    for path, problem in problems.items():
        typer.echo(printable(f"tf24migrate: {path}: {problem}"), err=True)
    gone = [p for p in listed if not os.path.lexists(p)]
    for path in gone:
        typer.echo(printable(f"tf24migrate: note: {path}: listed by --files-from, does not exist"), err=True)
    listed_problems = {
        p: problem for p in listed if p not in gone and (problem := path_problem(p)) is not None
    }
    for path, problem in listed_problems.items():
        typer.echo(printable(f"tf24migrate: {path}: {problem}"), err=True)
    missing = [*problems, *listed_problems]
    paths = [p for p in (*paths, *listed) if p not in missing and p not in gone]
    if not paths:
        raise typer.Exit(EXIT_ERROR if missing else EXIT_OK)
    paths = _without_other_kinds(paths)
    if not paths:
        raise typer.Exit(EXIT_ERROR if missing else EXIT_OK)

    from tf24migrate.cli.groups import Options, groups_of
    from tf24migrate.cli.project_root import project_root as project_root_of
    from tf24migrate.cli.session import migrate_stdin, run_files
    from tf24migrate.run.discovery import MissingPathError

    options = Options(
        select=select_,
        extend_select=extend_select_,
        ignore=ignore_,
        target_version=target_version,
        unsafe_fixes=unsafe_fixes,
        exclude=_split(exclude),
        extend_exclude=_split(extend_exclude),
        no_ignore=no_ignore or no_respect_gitignore,
        force_exclude=force_exclude,
        jobs=jobs,
        cache_dir=cache_dir,
        no_cache=no_cache,
    )
    try:  # each path's own pyproject.toml; a source on stdin: its name's, else the current folder's
        groups = groups_of([stdin_filename or "."] if paths == ["-"] else paths, options)
    except (UnknownRuleError, ConfigError, TargetVersionError) as error:
        raise fail(str(error)) from None
    if out is not None:
        from tf24migrate.run.out_tree import copy_tree

        try:
            copy_tree(paths[0], out)
        except OSError as error:
            raise fail(f"--out {out}: cannot copy {paths[0]} there: {error}") from None
    if show_settings or show_files:
        from tf24migrate.cli.session import list_files, project_groups
        from tf24migrate.cli.settings_shown import show_settings as print_settings

        with contextlib.ExitStack() as stack:
            if output_file is not None:
                stack.enter_context(_stdout_to(output_file))
            if show_settings:
                print_settings(project_groups(groups), typer.echo)
            if show_files:
                list_files(groups)
        raise typer.Exit(EXIT_OK)
    with contextlib.ExitStack() as stack:
        if output_file is not None:
            stack.enter_context(_stdout_to(output_file))
        run = _run_of(
            mode,
            groups,
            output_format,
            color,
            quiet=quiet,
            statistics=statistics,
            exit_zero=exit_zero,
            paths_missing=len(missing),
            exit_non_zero_on_fix=exit_non_zero_on_fix,
            project_root=project_root_of(project_root),
            add_noqa=add_noqa,
            changed_lines=lines_changed,
            report=report,
            out=None if out is None else (paths[0], out),
            verbose=verbose,
            diff_asked=diff,
        )
        try:
            exit_code = migrate_stdin(run, stdin_filename or "<stdin>") if paths == ["-"] else run_files(run)
        except MissingPathError as error:
            raise fail(str(error)) from None
        except OSError as error:  # files' own errors are their results': this is the output failing
            raise _output_failed(error) from None
    raise typer.Exit(exit_code)


def _run_of(mode, groups, output_format, color, **settled) -> Run:
    """The run the options ask for; colour by default when stdout (or the output file) is a terminal."""
    return Run(
        mode=mode,
        groups=groups,
        output_format=output_format,
        color=color if color is not None else (sys.stdout.isatty() and "NO_COLOR" not in os.environ),
        **settled,
    )


@contextlib.contextmanager
def _stdout_to(path: str):
    """`sys.stdout` writing to the file at `path` (`--output-file`), created or emptied, for the
    block; a file that cannot be opened is a usage error."""
    try:
        handle = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed below
    except OSError as error:
        raise fail(f"--output-file {path}: cannot write: {error.strerror or error}") from None
    previous = sys.stdout
    sys.stdout = handle
    try:
        yield
    finally:
        sys.stdout = previous
        handle.close()


def _output_failed(error: OSError) -> typer.Exit:
    """The output cannot be written (a closed pipe, a full disk): said on stderr, and nothing more
    goes to the output."""
    _silence_stdout()
    return fail(
        f"cannot write the output ({error.strerror or error}); the run stopped there: each file "
        "is either as it was or completely migrated"
    )


def _silence_stdout() -> None:
    """Point the standard output at the null device, so that nothing more fails on it."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)


def _standard_streams() -> None:
    """A closed standard input or error is opened on the null device (so no file the run opens
    takes its number); a closed standard output is an error: the results would go nowhere."""
    for number in (0, 2, 1):
        try:
            os.fstat(number)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if number == 0 else os.O_WRONLY)
            if null != number:
                os.dup2(null, number)
                os.close(null)
            if number == 1:
                sys.stderr.write(
                    "tf24migrate: error: the standard output is closed: redirect it (to a file or /dev/null)\n"
                )
                sys.exit(EXIT_ERROR)
            stream = open(number, "r" if number == 0 else "w", closefd=False)  # noqa: SIM115 - the process's
            setattr(sys, "stdin" if number == 0 else "stderr", stream)


def server_command(
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Speak LSP over stdin and stdout (the default, and the only way).")
    ] = False,
) -> None:
    r"""Start the language server: findings shown in the editor, fixes offered as code actions.

    Needs the `server` extra: pip install "tf24migrate\[server]".
    """
    from tf24migrate.server import sigterm

    sigterm.install()  # first: a SIGTERM from now on ends the server as `exit` does
    from tf24migrate.engine.loading import server_classes
    from tf24migrate.server.heap import keep_big_blocks_apart
    from tf24migrate.server.worker import Worker

    keep_big_blocks_apart()
    worker = Worker()
    try:
        worker.start()  # it warms up while the server loads (pygls, lsprotocol): first diagnostics sooner
        try:
            with server_classes():  # lsprotocol's classes: their code cached
                from tf24migrate.server.protocol import serve
        except ImportError as error:
            missing = (error.name or "pygls").split(".")[0]
            raise fail(
                f"the language server needs the `server` extra ({missing} is missing): "
                'pip install "tf24migrate[server]"'
            ) from None
        serve(worker)
    finally:
        worker.close()


def main() -> None:
    _standard_streams()
    try:
        if sys.argv[1:2] == ["server"]:  # a folder named `server` is migrated as `./server`
            app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})
            app.command()(server_command)
            app(args=sys.argv[2:], prog_name="tf24migrate server")
            return
        if sys.argv[1:2] == ["verify"]:  # a folder named `verify` is migrated as `./verify`
            from tf24migrate.verify.command import main as verify

            verify(sys.argv[2:])
            return
        _app()(prog_name="tf24migrate")
    except Exception as error:  # a bug: one line, and never exit 1 (which means "changes due")
        import traceback

        where = traceback.extract_tb(error.__traceback__)[-1]
        sys.stderr.write(
            f"tf24migrate: error: internal failure ({type(error).__name__}: {str(error)[:200]} at "
            f"{os.path.basename(where.filename)}:{where.lineno}); nothing more was done: please report "
            "it with the command and the file\n"
        )
        sys.exit(EXIT_ERROR)


# Container objects allocated (net) between two runs of Python's cyclic garbage collector, in the
# process of a run that migrates files (not the server's, where it measured nothing): 700 by
# default, so a run collects hundreds of times, each time walking LibCST's fresh nodes and
# promoting them, though nearly all die by reference counting when their file is done. mypy's
# figure; the workers forked from here inherit it (and so seldom scan what they inherit), and
# `benchmarks/` time the engine's stages with it. The `gc` trick (`model.tricks`).
COLLECT_AFTER = 200_000


def entry_point() -> None:
    """The `tf24migrate` command (and `python -m tf24migrate`): `main`, then the process ends at
    once, without the interpreter's teardown of every object it holds (the `exit` trick of
    `model.tricks`; switched off, `sys.exit`): by then each file is written, the cache's index
    saved and the workers joined. A caller that goes on after the command (a test) calls `main`,
    which returns or raises `SystemExit`. Its garbage collector runs seldom (`COLLECT_AFTER`)."""
    if not switched_off("gc") and sys.argv[1:2] != ["server"]:
        gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])
    try:
        main()
        code = EXIT_OK
    except SystemExit as done:
        code = _status(done.code)
    try:
        _flush(sys.stdout)
    except OSError as error:
        code = _output_failed(error).exit_code
    with contextlib.suppress(OSError):
        _flush(sys.stderr)
    if switched_off("exit"):
        sys.exit(code)
    os._exit(code)


def _flush(stream) -> None:
    """Flush `stream` if it is still open (the language server closes the standard output)."""
    if stream is not None and not stream.closed:
        stream.flush()


def _status(code: object) -> int:
    """The exit status of `SystemExit(code)`, as Python gives it (a message is printed, status 1)."""
    if code is None or isinstance(code, int):
        return code or 0
    sys.stderr.write(f"{code}\n")
    return 1


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})
    app.command(name="tf24migrate", cls=UsageErrorsInOneLine)(main_command)
    return app
