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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import typer

from tf24migrate import __version__
from tf24migrate.cli.exit_codes import EXIT_DUE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from tf24migrate.cli.groups import Group, describe, shown
from tf24migrate.cli.output import Summary, finding_line, github_annotations, json_document, printable
from tf24migrate.cli.statistics import RuleStatistics
from tf24migrate.model.findings import FileResult, Finding, MigrationResult, Status
from tf24migrate.run.discovery import iter_source_files
from tf24migrate.run.file import decode_file, migrate_declining, migrate_loaded, write_result
from tf24migrate.run.files import STOP_SIGNALS, UnreadableFile
from tf24migrate.run.migrate import migrate_files
from tf24migrate.sources.diff import diff_bytes
from tf24migrate.sources.kinds import SUFFIXES, kind_of


@dataclass(frozen=True)
class Run:
    """What the command line asked for, settled (pyproject.toml merged in)."""

    mode: str  # "diff", "write", "check" or "interactive"; with `stdin`, "write" prints the source
    groups: Sequence[Group]  # the paths, each group with its settings (`cli.groups`); stdin: one
    output_format: str  # "text", "json", "github" or "sarif"
    color: bool
    quiet: bool
    statistics: bool
    exit_zero: bool = False  # exit 0 when something is due (still 2 when a file failed)
    exit_non_zero_on_fix: bool = False  # exit 1 when a fix was written, even with nothing left
    paths_missing: int = 0  # paths named that do not exist, folders unreadable (left out: exit 2)
    stdin: bool = False  # one source from stdin: its migrated source, or its diff, to stdout

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
    """Prints each result as it comes, and keeps the totals over every group."""

    def __init__(self, run: Run, progress) -> None:
        self.run = run
        self.group = run.groups[0]  # the settings of the results added now
        self.config_of: dict[str, str | None] = {}  # each kept result's config, with several groups
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
            result, self.group.rules, unsafe_fixes=self.group.unsafe_fixes, declined=declined
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
        self.summary = self.summary.plus(result)
        self.statistics.add(result.findings)
        if run.output_format != "text":
            # JSON shows the diffs due; SARIF describes every applied fix as a replacement.
            # A source from stdin keeps its code: the document is the only place it goes.
            with_texts = run.stdin or (
                result.status is Status.CHANGED and (not run.writes or run.output_format == "sarif")
            )
            self.kept.append(result if with_texts else dataclasses.replace(result, source=None, code=None))
            if len(run.groups) > 1:
                self.config_of[result.path] = shown(self.group.config_path)
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

    def finish(self, elapsed: float, *, interrupted: bool = False) -> int:
        """The document (of the files done, marked, when `interrupted`), statistics, summary."""
        run, groups = self.run, self.run.groups
        self.progress.clear()
        if run.output_format == "json":
            document = json_document(
                self.kept,
                __version__,
                with_diffs=not run.writes,
                target=groups[0].target if len(groups) == 1 else None,
                statistics=self.statistics.json(written=run.writes) if run.statistics else None,
                with_code=run.stdin,
            )
            if interrupted:
                document["interrupted"] = True  # `files` holds only those done
            if len(groups) == 1:
                document["config"] = shown(groups[0].config_path)
            else:  # each file names its config; the list says each config's target
                for entry in document["files"]:
                    entry["config"] = self.config_of[entry["path"]]
                document["config"] = [group.json() for group in groups]
            typer.echo(json.dumps(document, indent=2))
        elif run.output_format == "github":
            typer.echo(github_annotations(self.kept), nl=False)
        elif run.output_format == "sarif":
            from tf24migrate.cli.sarif import sarif_log

            rules = list({rule.code: rule for group in groups for rule in group.rules}.values())
            log = sarif_log(self.kept, rules, __version__, interrupted=interrupted)
            if len(groups) > 1:
                log["runs"][0]["invocations"][0]["properties"] = {"config": [g.json() for g in groups]}
            typer.echo(json.dumps(log, indent=2))
        if run.statistics:  # with a structured format, stdout holds the document alone
            to_stderr = run.findings_to_stderr or run.output_format != "text"
            for line in self.statistics.lines(written=run.writes):
                typer.echo(line, err=to_stderr)
        if not run.quiet:
            typer.echo(
                f"{self.summary.line(written=run.writes)}{describe(groups)} in {elapsed:.2f}s", err=True
            )
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


def _note_skipped(path: str, why: str) -> None:
    typer.echo(printable(f"tf24migrate: {path}: {why}"), err=True)


def _open_cache(group: Group):
    """The group's result cache, or None (none asked for, or its folder cannot be used: one note)."""
    if group.cache_dir is None:
        return None
    from tf24migrate.run.cache import ResultCache, run_key

    try:
        return ResultCache.open(group.cache_dir, run_key(group.rules, group.unsafe_fixes))
    except OSError as error:
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

    files = _files_of(run.groups, on_skip)
    run = dataclasses.replace(run, paths_missing=run.paths_missing + len(unreadable))
    total = sum(map(len, files))
    progress = ProgressBar(
        total, sys.stderr, enabled=not run.quiet and run.mode != "interactive" and sys.stderr.isatty()
    )
    printer = _Printer(run, progress)
    try:
        stop_signals_interrupt()
        for group, group_files in zip(run.groups, files, strict=True):
            printer.group = group
            if not _run_group(group, group_files, printer):
                break
    except KeyboardInterrupt:
        progress.clear()
        if run.output_format != "text":  # the record of what was done, marked as partial
            printer.finish(time.monotonic() - started, interrupted=True)
        typer.echo(
            f"tf24migrate: interrupted before all {total} files were done; each file is either "
            f"as it was or completely migrated: run the command again to finish",
            err=True,
        )
        return EXIT_INTERRUPTED
    return printer.finish(time.monotonic() - started)


def _files_of(groups: Sequence[Group], on_skip) -> list[list[str]]:
    """Each group's files. With several groups, a file is migrated once: a file under a path
    named in another group, deeper than the path that found it, is that group's (a nested
    project named keeps its own config); a file reached otherwise from two groups is the first's."""
    named = [path for group in groups for path in group.paths]
    files = [
        list(iter_source_files(group.paths, SUFFIXES, group.path_filter, on_skip, roots=named))
        for group in groups
    ]
    if len(groups) == 1:
        return files
    seen: set[str] = set()
    kept = []
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
    """Migrate and print one group's `files`; False when the review was quit."""
    results = migrate_files(
        files,
        group.rules,
        unsafe_fixes=group.unsafe_fixes,
        write=printer.run.mode == "write",
        jobs=group.jobs,
        texts=False,
        cache=_open_cache(group) if files else None,
    )
    try:
        for result in results:
            printer.progress.advance()
            printer.add(result)
            if printer.review is not None and printer.review.quit:
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
        (group,) = run.groups
        result = migrate_loaded(name, source, group.rules, unsafe_fixes=group.unsafe_fixes)
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
