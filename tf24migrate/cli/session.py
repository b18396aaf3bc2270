"""The command's run: results streamed from the runner to the terminal, one file at a time.

This is the printing half of the command line (`command` parses options): each result goes to the
reporter of the output format (`cli.reporters`), after the interactive review when there is one;
then the summary line and the exit code. Results are printed as they arrive and then dropped, so
memory does not grow with the number of files; only a structured output format (JSON, SARIF)
keeps what its document needs until the end.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import time
from collections.abc import Iterator, Mapping, Sequence

import typer

from tf24migrate.cli.exit_codes import EXIT_DUE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from tf24migrate.cli.groups import Group, by_project, describe, file_group, with_per_file_ignores
from tf24migrate.cli.invocation import Mode, OutputFormat, Run
from tf24migrate.cli.output import Summary, printable
from tf24migrate.cli.report import Report
from tf24migrate.cli.reporters import reporter_for
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Status
from tf24migrate.model.notes import SYNTAX_ERROR
from tf24migrate.run.discovery import iter_source_files
from tf24migrate.run.files import STOP_SIGNALS, UnreadableFile
from tf24migrate.run.migrate import migrate_files
from tf24migrate.run.migrate_file import decode_file, encoded_result, kept_for_importers, migrate_loaded
from tf24migrate.sources.kinds import SUFFIXES


class _Printer:
    """Hands each result to the reporter as it comes, and keeps the totals over every group."""

    def __init__(self, run: Run, progress) -> None:
        self.run = run
        self.group = run.groups[0]  # the settings of the results added now
        self.progress = progress
        self.summary = Summary()
        self.statistics = RuleStatistics()
        self.stdout_is_terminal = sys.stdout.isatty()
        self.reporter = reporter_for(run, self.echo)
        self.noqa = _NoqaWriter() if run.add_noqa else None
        self.report = None if run.report is None else Report(written=run.writes)
        self.report_failed = False
        self.unusable_caches: set[str] = set()  # the cache folders noted as unusable
        self.review = None
        if run.mode is Mode.INTERACTIVE:
            from tf24migrate.cli.interactive import Review

            self.review = Review(self.show, sys.stdin.readline, color=run.color)

    def echo(self, text: str | bytes, *, err: bool, nl: bool = True, color: bool | None = None) -> None:
        if err or self.stdout_is_terminal:  # the bar shares the terminal with this text
            self.progress.clear()
        typer.echo(text, err=err, nl=nl, color=color)

    def show(self, text: str) -> None:
        """The review's text, on stdout as it is."""
        self.echo(text, err=False, nl=False, color=self.run.color)

    def add(self, result: FileResult) -> None:
        if self.run.changed_lines is not None:
            result = _on_changed_lines(result, self.run.changed_lines)
        if self.run.out is not None and result.changed:
            result = _written_to_copy(result, *self.run.out)
        if self.noqa is not None:
            result = self.noqa.add(result)
        self.summary.add(result)
        self.statistics.add(result.findings)
        if self.report is not None:
            self.report.add(result)
        if self.noqa is None:
            self.reporter.add(result, self.group)

    @property
    def needs_texts(self) -> bool:
        """Whether a changed result must come with its texts: the reporter or the report shows them."""
        return self.reporter.needs_texts or self.report is not None or self.run.out is not None

    def _write_report(self, path: str) -> None:
        """The report, to `path`; a report that cannot be written is said on stderr, and fails the run."""
        from tf24migrate.cli.report import report_format

        assert self.report is not None
        if len(self.run.groups) == 1:
            self.report.target = self.run.groups[0].target
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(self.report.text(self.summary, report_format(path) or "json"))
        except OSError as error:
            typer.echo(
                f"tf24migrate: error: --report {path}: cannot write: {error.strerror or error}", err=True
            )
            self.report_failed = True

    def finish(self, elapsed: float, *, interrupted: bool = False) -> int:
        """The document (of the files done, marked, when `interrupted`), statistics, summary."""
        run = self.run
        self.progress.clear()
        self.reporter.finish(self.summary, self.statistics, interrupted=interrupted)
        if self.report is not None and run.report is not None:
            self._write_report(run.report)
        if self.review is not None and self.review.not_offered:
            count = self.review.not_offered
            typer.echo(
                f"tf24migrate: review quit: {count} more change{'' if count == 1 else 's'} not offered, "
                "nothing written for them; run the command again to review them",
                err=True,
            )
        if self.noqa is not None:
            self.noqa.finish()
            return EXIT_ERROR if self.summary.files_failed or run.paths_missing else EXIT_OK
        if not run.quiet:
            typer.echo(
                f"{self.summary.line(written=run.writes)}{describe(run.groups)} in {elapsed:.2f}s", err=True
            )
        return EXIT_ERROR if self.report_failed else exit_code(self.summary, run)


def _written_to_copy(result: FileResult, source: str, destination: str) -> FileResult:
    """`result`, its code written over its copy under `destination` (`--out`): written; or failed,
    none of its fixes applied, when the copy cannot be written."""
    from tf24migrate.run.out_tree import write_copy

    try:
        write_copy(result, source, destination)
    except OSError as error:
        findings = tuple(dataclasses.replace(f, applied=False) for f in result.findings)
        why = f"--out: its copy not written: {error}"
        return dataclasses.replace(result, status=Status.FAILED, error=why, findings=findings)
    return dataclasses.replace(result, written=True)


def _on_changed_lines(result: FileResult, changed: Mapping[str, frozenset[int] | None]) -> FileResult:
    """`result` with only its findings on a changed line (`--only-changed-lines`); a notebook's
    findings all (their lines are a cell's), and a file's failure too."""
    lines = changed.get(os.path.abspath(result.path), None)
    if lines is None or not result.findings:
        return result
    kept = tuple(
        finding
        for finding in result.findings
        if finding.cell is not None
        or finding.code == SYNTAX_ERROR.code
        or not lines.isdisjoint(range(finding.line, finding.end_line + 1))
    )
    return dataclasses.replace(result, findings=kept)


class _NoqaWriter:
    """`--add-noqa`: each result's findings left written as `# noqa:` comments (`run.noqa`), what
    could not be said on stderr, and the count at the end (as ruff's "Added N noqa directives")."""

    def __init__(self) -> None:
        self.added = 0
        self.files = 0

    def add(self, result: FileResult) -> FileResult:
        """`result`, failed if its comments could not be written."""
        from tf24migrate.run.files import UnreadableFile
        from tf24migrate.run.noqa import add_noqa
        from tf24migrate.sources.kinds import PYTHON, kind_of

        left = [finding for finding in result.findings if not finding.applied]
        if not left or result.status is Status.FAILED:
            return result
        if kind_of(result.path) is not PYTHON:
            _note_skipped(
                result.path, f"--add-noqa: {len(left)} findings left as they are: it writes Python files only"
            )
            return result
        try:
            added, skipped = add_noqa(result.path, left)
        except (OSError, UnreadableFile) as error:
            why = getattr(error, "strerror", None) or error
            return dataclasses.replace(result, status=Status.FAILED, error=f"--add-noqa: cannot write: {why}")
        for finding in skipped:
            _note_skipped(
                finding.location,
                f"--add-noqa: no comment can end line {finding.line} or {finding.end_line} "
                f"(a string or a `\\` goes on): suppress {finding.code} by hand",
            )
        if added:
            self.added += added
            self.files += 1
        return result

    def finish(self) -> None:
        typer.echo(
            f"tf24migrate: added {self.added} noqa code{'' if self.added == 1 else 's'} "
            f"in {self.files} file{'' if self.files == 1 else 's'}",
            err=True,
        )


def exit_code(summary: Summary, run: Run) -> int:
    """2 when a file failed or a path named is missing; 1 when something is due (a preview or
    `--check` found changes, or an error finding is left unfixed) unless `--exit-zero`, or when
    `--exit-non-zero-on-fix` and a fix was written; else 0."""
    if summary.files_failed or run.paths_missing:
        return EXIT_ERROR
    due = (not run.writes and summary.files_changed) or summary.unfixed_errors
    if due and not run.exit_zero:
        return EXIT_DUE
    if run.exit_non_zero_on_fix and run.writes and summary.files_changed:
        return EXIT_DUE
    return EXIT_OK


def _note_skipped(path: str, why: str) -> None:
    typer.echo(printable(f"tf24migrate: {path}: {why}"), err=True)


def _open_cache(group: Group, unusable: set[str]):
    """The group's result cache, or None (none asked for, or its folder cannot be used: one note
    for the run, which keeps the folders found `unusable`, however many groups use them)."""
    if group.cache_dir is None or group.cache_dir in unusable:
        return None
    from tf24migrate.run.cache import ResultCache, run_key

    try:
        return ResultCache.open(group.cache_dir, run_key(group.settings))
    except OSError as error:
        unusable.add(group.cache_dir)
        typer.echo(
            f"tf24migrate: note: the cache folder {group.cache_dir} cannot be used "
            f"({error.strerror or error}); running without a cache (--no-cache hides this note)",
            err=True,
        )
        return None


def run_files(run: Run) -> int:
    """Migrate the files under each group's paths with its settings, as `run` says; one stream of
    results, one summary; returns the exit code."""
    from tf24migrate.cli.progress import ProgressBar

    started = time.monotonic()
    unreadable: list[str] = []

    def on_skip(path: str, why: str, failed: bool = False) -> None:
        _note_skipped(path, why)
        if failed:
            unreadable.append(path)

    on_leave = _say_left if run.verbose else None
    groups, files = by_project(
        run.groups, _files_of(run.groups, on_skip, on_leave)
    )  # each file's own project
    if run.verbose:
        for group, group_files in zip(groups, files, strict=True):
            _say_settings(group, group_files)
    run = dataclasses.replace(run, groups=groups, paths_missing=run.paths_missing + len(unreadable))
    total = sum(map(len, files))
    progress = ProgressBar(
        total, sys.stderr, enabled=not run.quiet and run.mode is not Mode.INTERACTIVE and sys.stderr.isatty()
    )
    printer = _Printer(run, progress)
    try:
        stop_signals_interrupt()
        for group, group_files in with_per_file_ignores(run.groups, files):
            printer.group = group
            if not _run_group(group, group_files, printer):
                break
    except KeyboardInterrupt:
        progress.clear()
        if run.output_format is not OutputFormat.TEXT:  # the record of what was done, marked as partial
            printer.finish(time.monotonic() - started, interrupted=True)
        typer.echo(
            f"tf24migrate: interrupted before {_all_files(total)} done; each file is either "
            f"as it was or completely migrated: run the command again to finish",
            err=True,
        )
        return EXIT_INTERRUPTED
    return printer.finish(time.monotonic() - started)


def _all_files(total: int) -> str:
    return "its one file was" if total == 1 else f"all {total} files were"


def _say_left(path: str, why: str) -> None:
    """`-v`: a folder or source file a walk leaves out, and why, on stderr."""
    typer.echo(printable(f"tf24migrate: left out: {path}: {why}"), err=True)


def _say_settings(group: Group, files: Sequence[str]) -> None:
    """`-v`: the group's settings, and how many files its walk found (and the cache holds), on stderr."""
    from tf24migrate.cli.settings_shown import cached_count, settings_lines

    for line in settings_lines(group):
        typer.echo(printable(f"tf24migrate: {line}"), err=True)
    cached = cached_count(group, files)
    held = "" if cached is None else f", {cached} of them with a result in the cache"
    typer.echo(f"tf24migrate: {len(files)} file{'' if len(files) == 1 else 's'} to migrate{held}", err=True)


def project_groups(groups: Sequence[Group]) -> list[Group]:
    """`groups` as a run splits them, each file with its own project's target (`by_project`)."""
    return by_project(groups, _files_of(groups, _note_skipped))[0]


def list_files(groups: Sequence[Group]) -> None:
    """`--show-files`: each file a run over `groups` would migrate, one a line, on stdout."""
    for group_files in _files_of(groups, _note_skipped):
        for file in group_files:
            typer.echo(printable(file))


def _files_of(groups: Sequence[Group], on_skip, on_leave=None) -> list[list[str]]:
    """Each group's files (`on_leave`: hears of what the walks leave out, and why). With several groups, a file is migrated once: a file under a path
    named in another group, deeper than the path that found it, is that group's (a nested
    project named keeps its own config); a file reached otherwise from two groups is the first's."""
    named = [path for group in groups for path in group.paths]
    files = [
        list(
            iter_source_files(
                group.paths, SUFFIXES, group.path_filter, on_skip, roots=named, on_leave=on_leave
            )
        )
        for group in groups
    ]
    if len(groups) == 1:
        return files
    seen: set[str] = set()
    kept: list[list[str]] = []
    absolute = {path: os.path.abspath(path) for path in named}
    for group, found in zip(groups, files, strict=True):
        own = {absolute[path] for path in group.paths if os.path.isdir(path)}  # a file holds no other
        inner = {  # the other groups' paths under one of this group's folders
            absolute[path]
            for other in groups
            if other is not group and own
            for path in other.paths
            if not own.isdisjoint(_self_and_folders(absolute[path]))
        }
        kept.append([])
        for file in found:
            if inner and not inner.isdisjoint(_self_and_folders(os.path.abspath(file))):
                continue
            real = os.path.realpath(file)
            if real not in seen:
                seen.add(real)
                kept[-1].append(file)
    return kept


def _self_and_folders(path: str) -> Iterator[str]:
    """An absolute path, then each folder it is in (the paths it is `==` or under): looked up in a
    set, so that many paths named (`--files-from`) cost their depth, not their number squared."""
    while True:
        yield path
        parent = os.path.dirname(path)
        if parent == path:
            return
        path = parent


def _run_group(group: Group, files: list[str], printer: _Printer) -> bool:
    """Migrate and print one group's `files`; False when the review was quit. `--interactive`
    writes through the same path as `--write`, with the review choosing what each write holds."""
    review = printer.review
    results = migrate_files(
        files,
        group.settings,
        write=printer.run.writes and printer.run.out is None,  # --out: the printer writes the copies
        jobs=group.jobs,
        texts=False,
        change_texts=printer.needs_texts,
        cache=_open_cache(group, printer.unusable_caches) if files else None,
        choose=None if review is None else lambda result: review.choose(result, group, printer.progress),
    )
    try:
        for result in results:
            printer.progress.advance()
            printer.add(result)
            if review is not None and review.quit:
                return False
    finally:
        results.close()  # lets the workers finish the file at hand, and starts no other
    return True


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
        source = decode_file(name, raw)
    except UnreadableFile as error:
        result = FileResult(path=name, status=Status.FAILED, error=f"cannot read: {error}")
        output = raw
    else:
        group = file_group(run.groups[0], name)  # as the file named would be
        result = kept_for_importers(
            name, source, group.settings, migrate_loaded(name, source, group.settings)
        )
        output = raw
        if result.status is Status.CHANGED and run.writes:
            result, output = encoded_result(result, raw)  # the bytes a write would put in the file
            if result.status is Status.CHANGED:
                result = dataclasses.replace(result, written=run.output_format is OutputFormat.TEXT)
    printer = _Printer(run, _NoProgress())
    printer.add(result)
    if run.output_format is OutputFormat.TEXT and run.writes:  # else the printer printed the diff, or nothing
        sys.stdout.flush()
        sys.stdout.buffer.write(output)
        sys.stdout.buffer.flush()
    return printer.finish(time.monotonic() - started)


class _NoProgress:
    def advance(self) -> None:
        pass

    def clear(self) -> None:
        pass
