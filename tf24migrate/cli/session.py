"""The command's run: results streamed from the runner to the terminal, one file at a time.

This is the printing half of the command line (`command` parses options): diffs, finding lines,
the interactive review, the progress bar, statistics, the summary and the exit code. Results are
printed as they arrive and then dropped, so memory does not grow with the number of files; only a
structured output format (JSON) keeps what its document needs until the end.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import typer

from tf24migrate import __version__
from tf24migrate.cli.exit_codes import EXIT_DUE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from tf24migrate.cli.output import Summary, finding_line, github_annotations, json_document, printable
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, MigrationResult, Status
from tf24migrate.rules.base import Rule
from tf24migrate.run.discovery import PathFilter, iter_source_files
from tf24migrate.run.file import migrate_declining, migrate_loaded, write_result
from tf24migrate.run.files import STOP_SIGNALS, UnreadableFile, decode_source
from tf24migrate.run.migrate import migrate_files
from tf24migrate.sources.diff import diff_bytes
from tf24migrate.sources.kinds import SUFFIXES, kind_of


@dataclass(frozen=True)
class Run:
    """What the command line asked for, settled (pyproject.toml merged in)."""

    mode: str  # "diff", "write", "check" or "interactive"; with `stdin`, "write" prints the source
    rules: Sequence[Rule]
    unsafe_fixes: bool
    output_format: str  # "text", "json", "github" or "sarif"
    color: bool
    quiet: bool
    statistics: bool
    exit_zero: bool = False  # exit 0 when something is due (still 2 when a file failed)
    exit_non_zero_on_fix: bool = False  # exit 1 when a fix was written, even with nothing left
    paths_missing: int = 0  # paths named that do not exist, folders unreadable (left out: exit 2)
    stdin: bool = False  # one source from stdin: its migrated source, or its diff, to stdout
    cache_dir: str | None = None  # the result cache's folder; None: no cache
    config_path: str | None = None  # the pyproject.toml whose settings the run uses

    @property
    def writes(self) -> bool:
        return self.mode in ("write", "interactive")

    @property
    def findings_to_stderr(self) -> bool:
        return self.mode == "diff" or self.stdin  # stdout carries the diff, or the source


def color_diff(diff: str, color: bool) -> str:
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


class _Printer:
    """Prints each result as it comes, and keeps the totals."""

    def __init__(self, run: Run, progress) -> None:
        self.run = run
        self.progress = progress
        self.summary = Summary.of([])
        self.statistics = RuleStatistics()
        self.kept: list[FileResult] = []  # only for a structured output format
        self.review = None
        self.stdout_is_terminal = sys.stdout.isatty()
        if run.mode == "interactive":
            from tf24migrate.cli.interactive import Review

            self.review = Review(lambda text: typer.echo(text, nl=False), sys.stdin.readline)

    def echo(self, text: str | bytes, *, err: bool, nl: bool = True, color: bool | None = None) -> None:
        if err or self.stdout_is_terminal:  # the bar shares the terminal with this text
            self.progress.clear()
        typer.echo(text, err=err, nl=nl, color=color)

    def diff_of(self, result: FileResult) -> str:
        return color_diff(
            kind_of(result.path).diff(result.path, result.source or "", result.code or ""), self.run.color
        )

    def file_diff(self, result: FileResult) -> bytes | str:
        """The diff printed for a changed file: the bytes `git apply` needs (its encoding, its BOM)."""
        encoding = result.extra.get("encoding", "utf-8")
        if encoding in ("utf-8", "utf8") or result.path.lower().endswith(".ipynb"):
            return self.diff_of(result)
        bom = "\ufeff" if encoding == "utf-8-sig" else ""
        diff = kind_of(result.path).diff(result.path, bom + (result.source or ""), bom + (result.code or ""))
        return diff_bytes(color_diff(diff, self.run.color), encoding)

    def reviewed(self, result: FileResult) -> FileResult:
        """The result after asking about each of its fixes (interactive mode only); only the
        accepted ones are written."""
        self.progress.clear()
        fixes = [f for f in result.findings if f.applied]
        if len(fixes) <= 1:  # one question, about the file's whole change
            if self.review.accepts(
                printable(result.path), self.diff_of(result), _which(fixes[0]) if fixes else ""
            ):
                return write_result(result)
            return _skipped(result)
        accepted = [fix for fix in fixes if self._accepts_alone(result, fix, fixes)]
        if len(accepted) == len(fixes):
            return write_result(result)
        partial = self._migrated(result, declined=[f for f in fixes if f not in accepted])
        if partial.code == result.source:
            return _skipped(dataclasses.replace(result, findings=partial.findings))
        return write_result(dataclasses.replace(result, code=partial.code, findings=partial.findings))

    def _migrated(self, result: FileResult, declined: list[Finding]) -> MigrationResult:
        return migrate_declining(
            result, self.run.rules, unsafe_fixes=self.run.unsafe_fixes, declined=declined
        )

    def _accepts_alone(self, result: FileResult, fix: Finding, fixes: list[Finding]) -> bool:
        """Show the change one fix makes on its own, and ask about it."""
        alone = self._migrated(result, declined=[f for f in fixes if f is not fix])
        if alone.code == result.source:  # nothing to show: it goes with the others
            return True
        diff = self.diff_of(dataclasses.replace(result, code=alone.code))
        return self.review.accepts(printable(result.path), diff, _which(fix))

    def add(self, result: FileResult) -> None:
        run = self.run
        if self.review is not None and result.status is Status.CHANGED:
            result = self.reviewed(result)
        self.summary = self.summary + Summary.of([result])
        self.statistics.add(result.findings)
        if run.output_format != "text":
            # JSON shows the diffs due; SARIF describes every applied fix as a replacement.
            # A source from stdin keeps its code: the document is the only place it goes.
            with_texts = run.stdin or (
                result.status is Status.CHANGED and (not run.writes or run.output_format == "sarif")
            )
            self.kept.append(result if with_texts else dataclasses.replace(result, source=None, code=None))
            return
        if result.status is Status.FAILED:
            self.echo(printable(f"{result.path}: error: {result.error}"), err=True)
        if run.mode == "diff" and result.status is Status.CHANGED:
            self.echo(self.file_diff(result), err=False, nl=False, color=run.color)
        if run.mode == "check" and result.status is Status.CHANGED:
            self.echo(f"would change: {printable(result.path)}", err=run.stdin)
        if not run.statistics:
            for finding in result.findings:
                self.echo(finding_line(finding, written=result.written), err=run.findings_to_stderr)

    def finish(self, elapsed: float) -> int:
        run = self.run
        self.progress.clear()
        if run.output_format == "json":
            document = json_document(
                self.kept,
                __version__,
                with_diffs=not run.writes,
                target=getattr(run.rules, "target", None),
                statistics=self.statistics.json(written=run.writes) if run.statistics else None,
                with_code=run.stdin,
            )
            document["config"] = _shown(run.config_path)
            typer.echo(json.dumps(document, indent=2))
        elif run.output_format == "github":
            typer.echo(github_annotations(self.kept), nl=False)
        elif run.output_format == "sarif":
            from tf24migrate.cli.sarif import sarif_log

            typer.echo(json.dumps(sarif_log(self.kept, run.rules, __version__), indent=2))
        if run.statistics:  # with a structured format, stdout holds the document alone
            to_stderr = run.findings_to_stderr or run.output_format != "text"
            for line in self.statistics.lines(written=run.writes):
                typer.echo(line, err=to_stderr)
        if not run.quiet:
            target = getattr(run.rules, "target", None)
            aimed = f"; target {target.describe}" if target is not None else ""
            aimed += f"; config {printable(_shown(run.config_path))}" if run.config_path else ""
            typer.echo(f"{self.summary.line(written=run.writes)}{aimed} in {elapsed:.2f}s", err=True)
        return exit_code(self.summary, run)


def _skipped(result: FileResult) -> FileResult:
    """A changed file left as it is: its findings are reported, none fixed."""
    findings = tuple(dataclasses.replace(f, applied=False) for f in result.findings)
    return dataclasses.replace(result, status=Status.UNCHANGED, code=result.source, findings=findings)


def _which(fix: Finding) -> str:
    """Which fix a question is about, after the file's name."""
    cell = f"cell {fix.cell}, " if fix.cell is not None else ""
    return f" ({fix.code}, {cell}line {fix.line})"


def exit_code(summary: Summary, run: Run) -> int:
    """2 when a file failed or a path named is missing; 1 when something is due (`--check` found changes, or an error finding
    is left unfixed) unless `--exit-zero`, or when `--exit-non-zero-on-fix` and a fix was written."""
    if summary.files_failed or run.paths_missing:
        return EXIT_ERROR
    due = (run.mode == "check" and summary.files_changed) or summary.unfixed_errors
    if due and not run.exit_zero:
        return EXIT_DUE
    if run.exit_non_zero_on_fix and run.writes and summary.files_changed:
        return EXIT_DUE
    return EXIT_OK


def _shown(path: str | None) -> str | None:
    return os.path.relpath(path) if path else None


def _note_other_configs(run: Run, paths: Sequence[str]) -> None:
    """One note per path whose own pyproject.toml is not the one the run uses."""
    from tf24migrate.run.config import find_pyproject

    nearest: dict[str, str | None] = {}
    for path in paths:
        folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
        if folder not in nearest:
            nearest[folder] = find_pyproject(folder)
            theirs = nearest[folder]
            if theirs is not None and theirs != run.config_path:
                used = _shown(run.config_path) or "no pyproject.toml (the defaults)"
                _note_skipped(
                    path,
                    f"note: has its own settings in {_shown(theirs)}, but this run applies {used} "
                    "(the first path's) to every path: run tf24migrate once per project",
                )


def _note_skipped(path: str, why: str) -> None:
    typer.echo(printable(f"tf24migrate: {path}: {why}"), err=True)


def _open_cache(run: Run):
    """The run's result cache, or None (none asked for, or its folder cannot be used: one note)."""
    if run.cache_dir is None:
        return None
    from tf24migrate.run.cache import ResultCache, run_key

    try:
        return ResultCache.open(run.cache_dir, run_key(run.rules, run.unsafe_fixes))
    except OSError as error:
        typer.echo(
            f"tf24migrate: note: the cache folder {run.cache_dir} cannot be used "
            f"({error.strerror or error}); running without a cache (--no-cache hides this note)",
            err=True,
        )
        return None


def run_files(run: Run, paths: Sequence[str], path_filter: PathFilter, *, jobs: int) -> int:
    """Migrate the files under `paths` as `run` says; returns the exit code."""
    from tf24migrate.cli.progress import ProgressBar

    started = time.monotonic()
    unreadable: list[str] = []

    def on_skip(path: str, why: str, failed: bool = False) -> None:
        _note_skipped(path, why)
        if failed:
            unreadable.append(path)

    _note_other_configs(run, paths)
    files = list(iter_source_files(paths, SUFFIXES, path_filter, on_skip=on_skip))
    run = dataclasses.replace(run, paths_missing=run.paths_missing + len(unreadable))
    progress = ProgressBar(
        len(files), sys.stderr, enabled=not run.quiet and run.mode != "interactive" and sys.stderr.isatty()
    )
    printer = _Printer(run, progress)
    results = migrate_files(
        files,
        run.rules,
        unsafe_fixes=run.unsafe_fixes,
        write=run.mode == "write",
        jobs=jobs,
        texts=False,
        cache=_open_cache(run) if files else None,
    )
    try:
        stop_signals_interrupt()
        for result in results:
            progress.advance()
            printer.add(result)
            if printer.review is not None and printer.review.quit:
                break
    except KeyboardInterrupt:
        results.close()  # lets the workers finish the file at hand, and starts no other
        progress.clear()
        typer.echo(
            f"tf24migrate: interrupted before all {len(files)} files were done; each file is either "
            f"as it was or completely migrated: run the command again to finish",
            err=True,
        )
        return EXIT_INTERRUPTED
    finally:
        results.close()
    return printer.finish(time.monotonic() - started)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def stop_signals_interrupt() -> None:
    """SIGTERM and SIGHUP stop the run as Ctrl-C does: the file at hand is finished and reported."""
    for number in STOP_SIGNALS:
        if number != signal.SIGINT:
            signal.signal(number, _interrupt)


def migrate_stdin(run: Run, name: str) -> int:
    """`-` as the path: one source from stdin; the migrated source (in its own encoding) to stdout,
    or with `--diff` its diff (naming `name`), or with JSON the document (the code in its `code`).

    A source that cannot be migrated is written back unchanged, so an editor piping through the
    command never loses text. With `--check` nothing goes to stdout.
    """
    started = time.monotonic()
    run = dataclasses.replace(run, stdin=True)
    raw = sys.stdin.buffer.read()
    try:
        source = decode_source(raw)
    except UnreadableFile as error:
        result = FileResult(path=name, status=Status.FAILED, error=f"cannot read: {error}")
        output = raw
    else:
        result = migrate_loaded(name, source, run.rules, unsafe_fixes=run.unsafe_fixes)
        output = raw
        if result.status is Status.CHANGED and run.writes:
            output = (result.code or "").encode(source.encoding)
            result = dataclasses.replace(result, written=run.output_format == "text")
    printer = _Printer(run, _NoProgress())
    printer.add(result)
    if run.output_format == "text" and run.writes:  # else the printer printed the diff, or nothing
        sys.stdout.flush()
        sys.stdout.buffer.write(output)
        sys.stdout.buffer.flush()
    return printer.finish(time.monotonic() - started)


class _NoProgress:
    def advance(self) -> None:
        pass

    def clear(self) -> None:
        pass
