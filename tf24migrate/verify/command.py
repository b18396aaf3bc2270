"""`tf24migrate verify [PATH] [OPTIONS] [-- CMD [ARGS...]]`: options in, the verdict out.

The arguments after the first `--` are the check (CMD), taken as they are; those before are the
command's own. The steps: the settings (`cli.groups`, as the command would migrate PATH), the
interpreters (`runtimes`, `environments`; or the user's own, which install nothing), the scratch
copies and the migration (`scratch`), both runs at once (`runs`), the verdict (`report`) on stdout.
Progress goes to stderr. Exit 0 when the check passes after the migration on TensorFlow 2.4.0, 1
when it fails there, 2 for a usage or environment error, 130 when stopped.
"""

from __future__ import annotations

import os
import signal
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from tf24migrate.cli.exit_codes import EXIT_DUE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from tf24migrate.cli.options import ExtendSelect, Ignore, Select, TargetVersion, UnsafeFixes
from tf24migrate.cli.usage import UsageErrorsInOneLine, fail, split_values

_RUNS = "Runs"


class Format(str, Enum):
    TEXT = "text"
    JSON = "json"


def verify_command(
    context: typer.Context,
    path: Annotated[
        str,
        typer.Argument(help="The project's folder (default: the current folder); only read.", metavar="PATH"),
    ] = ".",
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    target_version: TargetVersion = None,
    unsafe_fixes: UnsafeFixes = None,
    before_python: Annotated[
        str | None,
        typer.Option(
            help="Your own interpreter with TensorFlow 2.3 for the run before (nothing is installed).",
            metavar="PYTHON",
            rich_help_panel=_RUNS,
        ),
    ] = None,
    after_python: Annotated[
        str | None,
        typer.Option(
            help="Your own interpreter with TensorFlow 2.4 for the run after (nothing is installed).",
            metavar="PYTHON",
            rich_help_panel=_RUNS,
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(help="End each run after this many seconds (a failure).", min=0.001, metavar="SECONDS"),
    ] = None,
    output_format: Annotated[
        Format, typer.Option("--output-format", help="text or json.", metavar="FORMAT")
    ] = Format.TEXT,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
) -> None:
    """Check that the project still works after the migration: CMD runs on real TensorFlow 2.3.0 in a
    scratch copy as the code is, and on TensorFlow 2.4.0 in a migrated copy.

    THIS RUNS YOUR PROJECT'S CODE (CMD, or without `-- CMD` an import of every module the migration
    changed or has findings in) and installs its dependencies (from its requirements files,
    pyproject.toml, setup.cfg, setup.py) beside TensorFlow in environments kept in the user's cache
    folder. PATH is never modified; the copies are removed at the end.

    Example: tf24migrate verify . -- pytest -q tests/

    Exit codes: 0 the check passes after the migration on TensorFlow 2.4.0; 1 it fails there; 2 a
    usage or environment error.
    """
    from tf24migrate.verify.runs import CheckNotStarted
    from tf24migrate.verify.runtimes import RuntimeUnavailable

    command: list[str] | None = context.obj
    steps = _Steps(quiet=quiet, terminal=sys.stderr.isatty())
    group = _group(path, select, extend_select, ignore, target_version, unsafe_fixes)
    try:
        pythons = _interpreters(path, command, before_python, after_python, steps)
        verdict = _verify(group, command, pythons, timeout, steps.say)
    except (RuntimeUnavailable, CheckNotStarted) as error:
        steps.clear()
        raise fail(str(error)) from None
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: the runs are ended, the copies removed
        steps.clear()
        typer.echo("tf24migrate verify: stopped: both runs ended, the scratch copies removed", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    typer.echo(verdict.text() if output_format is Format.TEXT else _json(verdict))
    raise typer.Exit(EXIT_OK if verdict.passed else EXIT_DUE)


class _Steps:
    """What the run says on stderr as it goes: a line as each step starts, and on a terminal,
    the seconds a long one (an install) has taken, on a line of its own, wiped when done."""

    def __init__(self, *, quiet: bool, terminal: bool) -> None:
        self.quiet, self.terminal, self.shown = quiet, terminal, False

    def say(self, text: str) -> None:
        if not self.quiet:
            self.clear()
            typer.echo(f"tf24migrate verify: {text}", err=True)

    def progress(self, seconds: float) -> None:
        if not self.quiet and self.terminal:
            sys.stderr.write(f"\r  ... {seconds:.0f} s")
            sys.stderr.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def _json(verdict) -> str:
    from tf24migrate.verify.report import dumps

    return dumps(verdict)


def _group(path, select, extend_select, ignore, target_version, unsafe_fixes):
    """The settings the command would migrate `path` with (its pyproject.toml, the options)."""
    from tf24migrate.cli.groups import Options, groups_of
    from tf24migrate.model.errors import UnknownRuleError
    from tf24migrate.model.target import TargetVersionError
    from tf24migrate.run.config import ConfigError

    if not os.path.isdir(path):
        raise fail(f"{path}: not a folder: verify copies a project's folder (default: the current one)")
    options = Options(
        select=split_values(select),
        extend_select=split_values(extend_select),
        ignore=split_values(ignore),
        target_version=target_version,
        unsafe_fixes=unsafe_fixes,
        no_cache=True,  # the copy's results are not worth keeping
    )
    try:
        (group,) = groups_of([path], options)
    except (UnknownRuleError, ConfigError, TargetVersionError) as error:
        raise fail(str(error)) from None
    return group


def _interpreters(path, command, before_python, after_python, steps: _Steps) -> dict[str, tuple[str, Path]]:
    """`{"before": (release, python), "after": ...}`: the user's interpreters as given, else the
    runtimes (made when missing) with the project's dependencies beside TensorFlow."""
    from tf24migrate.verify.environments import project_environment, project_requirements
    from tf24migrate.verify.runs import is_pytest
    from tf24migrate.verify.runtimes import AFTER, BEFORE, ensure

    given = {"before": before_python, "after": after_python}
    releases = {"before": BEFORE, "after": AFTER}
    requirements = project_requirements(path, with_pytest=command is not None and is_pytest(command))
    pythons = {}
    for side, release in releases.items():
        own = given[side]
        if own is not None:
            pythons[side] = (_installed_tensorflow(own, f"--{side}-python"), Path(os.path.abspath(own)))
            continue
        runtime = ensure(release, steps.say, then="tf24migrate verify", progress=steps.progress)
        environment = project_environment(
            runtime, release, requirements, os.path.abspath(path), steps.say, steps.progress
        )
        pythons[side] = (release, environment)
    steps.clear()
    return pythons


# The TensorFlow an interpreter has, read from its metadata (TensorFlow is not imported).
_TENSORFLOW_VERSION = """\
from importlib import metadata
for name in ("tensorflow", "tensorflow-cpu", "tensorflow-gpu"):
    try:
        print(metadata.version(name))
        break
    except metadata.PackageNotFoundError:
        pass
"""


def _installed_tensorflow(python: str, option: str) -> str:
    """The TensorFlow release installed for `python`; a usage error when there is none."""
    import subprocess

    try:
        done = subprocess.run([python, "-c", _TENSORFLOW_VERSION], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise fail(
            f"{option} {python}: cannot be run ({getattr(error, 'strerror', None) or error})"
        ) from None
    if done.returncode != 0 or not done.stdout.strip():
        raise fail(f"{option} {python}: no TensorFlow installed there: name an interpreter that has it")
    return done.stdout.strip()


def _verify(group, command, pythons, timeout, say):
    """Copy, migrate, run both, compare; the scratch folder is gone when this returns or raises."""
    from tf24migrate.verify.report import Run, Verdict
    from tf24migrate.verify.runs import (
        Runs,
        Side,
        command_check,
        import_checks,
        import_modules,
        is_pytest,
        junit_checks,
    )
    from tf24migrate.verify.scratch import Scratch, migrate_copy

    with _stopped_on_signals(), Scratch(group.paths[0]) as scratch, Runs(scratch.logs, timeout) as runs:
        before, after = (
            Side(name, release, python, scratch.root(name)) for name, (release, python) in pythons.items()
        )
        sides = [before, after]
        scratch.copy("before")
        if command is not None:  # the run before needs no migration: it starts now
            say(f"running {' '.join(command)} on TensorFlow {before.release}, as written")
            runs.start(before, _check_command(command, before, scratch.logs))
        scratch.copy("after")
        say(f"migrating a copy of {group.paths[0]} with {group.describe}")
        migration = migrate_copy(group, after.root)
        if command is None:
            modules = import_modules(after.root, sorted({*migration.changed, *migration.findings}))
            say(f"importing {len(modules)} modules on TensorFlow {before.release} and {after.release}")
            for side in sides:
                runs.start(side, _import_command(modules, after.root, side, scratch.logs))
        else:
            say(f"running {' '.join(command)} on TensorFlow {after.release}, migrated")
            runs.start(after, _check_command(command, after, scratch.logs))
        outcomes = runs.wait()
        for side, outcome in zip(sides, outcomes, strict=True):
            if command is None:
                outcome.checks = import_checks(scratch.logs / f"{side.name}.json", side.root)
            elif is_pytest(command):
                outcome.checks = junit_checks(scratch.logs / f"{side.name}.xml", side.root)
            if not outcome.checks:  # not pytest, or it ended before writing its report
                name = " ".join(command) if command is not None else "the imports"
                outcome.checks = {name: command_check(name, outcome, side.root, timeout)}
        reports = [
            Run(s.name, s.release, str(s.python), o, timeout) for s, o in zip(sides, outcomes, strict=True)
        ]
        return Verdict(command, reports[0], reports[1], migration)


def _check_command(command: list[str], side, logs: Path) -> list[str]:
    """CMD as `side` runs it: pytest writes its JUnit XML to the logs."""
    from tf24migrate.verify.runs import is_pytest

    return [*command, f"--junitxml={logs / f'{side.name}.xml'}"] if is_pytest(command) else list(command)


def _import_command(modules, after_root: Path, side, logs: Path) -> list[str]:
    """The import script as `side` runs it: the modules, their folders moved from the "after"
    copy to the side's own."""
    import json

    from tf24migrate.verify.runs import IMPORT_SCRIPT

    moved = [[name, str(side.root / os.path.relpath(folder, after_root))] for name, folder in modules]
    return ["python", "-c", IMPORT_SCRIPT, json.dumps(moved), str(logs / f"{side.name}.json")]


class _VerifyCommand(UsageErrorsInOneLine):
    """The subcommand, its usage line ending with the check it runs."""

    def collect_usage_pieces(self, ctx):
        return [*super().collect_usage_pieces(ctx), "[-- CMD [ARGS]...]"]


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised as Ctrl-C is, so that the runs are ended and the copies removed."""


class _stopped_on_signals:
    """SIGTERM and SIGHUP stop the run as Ctrl-C does, while the block runs."""

    def __enter__(self):
        def stop(number, frame):
            raise _Stopped

        self.previous = {
            number: signal.signal(number, stop)
            for number in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
            if number is not None
        }

    def __exit__(self, *exc_info):
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def main(argv: list[str]) -> None:
    """`tf24migrate verify ARGS`: the arguments after the first `--` are CMD."""
    own, command = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, None)
    if command == []:
        fail("nothing after `--`: name the check to run (`tf24migrate verify . -- pytest -q`)")
        sys.exit(EXIT_ERROR)
    app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})
    app.command(cls=_VerifyCommand)(verify_command)
    app(args=own, prog_name="tf24migrate verify", obj=command)
