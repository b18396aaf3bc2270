"""Migrating many files: in this process or in worker processes (`run.workers`), through the
result cache (`run.cache`) when there is one, with every write made here, in the order of the
files given (one writer, so every write is reported).
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import os
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import FileResult
from tf24migrate.run.discovery import PathFilter, iter_source_files
from tf24migrate.run.files import digest, interrupts_deferred, read_regular_file
from tf24migrate.run.migrate_file import load_rules, migrate_file, result_without_rules, slim, write_result
from tf24migrate.sources.kinds import SUFFIXES

if TYPE_CHECKING:
    from tf24migrate.run.cache import ResultCache
    from tf24migrate.run.importers import Importers
    from tf24migrate.run.workers import TailScan

# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_FROM = 8
# How many bytes of files in which no rule can fire this process reads first, before any worker
# starts, looking for one the rules must read (`_migrated`): about 20 ms.
_LEADING_BYTES = 1 << 20
# How many of the due files found by the scan of the last files are migrated before the others
# (`_migrated`): their results are held until their turn, so they are few.
_EARLY_DUE_FILES = 16


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def migrate_files(
    files: Sequence[str],
    settings: Settings,
    *,
    write: bool = False,
    jobs: int = 1,
    texts: bool = True,
    change_texts: bool = True,
    cache: ResultCache | None = None,
    choose: Callable[[FileResult], FileResult] | None = None,
) -> Generator[FileResult, None, None]:
    """Migrate `files` with `jobs` processes (0: all cores), yielding results in the order given.

    With `write`, `choose` (when given) returns what to write of each changed result: itself, one
    with fewer fixes (its `code` and `findings` replaced), or an unchanged one (nothing written);
    a file changed on disk meanwhile is migrated again and chosen from again (`--interactive`).

    With `texts` false, only changed files' results carry `source` and `code` (less to hold and
    to send between processes). With `cache` (and `texts` false), results are looked up there in
    this process first; only the files missing there are migrated (in workers, which store their
    results); with `change_texts` false too, a change found there comes without its texts. Every
    write is made here, through the same checks, a cached change's too.
    """
    jobs = jobs or default_jobs()
    if cache is not None:
        if texts:
            raise ValueError("a cache keeps no texts of unchanged files: pass texts=False with it")
        results = _results_with_cache(files, settings, jobs, cache, write, change_texts)
    else:
        results = _migrated(files, settings, jobs, texts)
    # Where each file is when the run starts: a write goes there, not through a symlink put
    # in place of the file or a folder on its way since (`write_source`).
    reals = {path: os.path.realpath(path) for path in files} if write else {}
    importers = _ImportersCheck(settings)
    try:
        for result in results:
            result = importers.checked(result)
            if write and result.changed and choose is not None:
                result = choose(result)
            if not (write and result.changed):
                yield result
                continue

            def again(path: str = result.path) -> FileResult:
                fresh = importers.checked(migrate_file(path, settings))
                return choose(fresh) if choose is not None and fresh.changed else fresh

            # A write and its report are one step: an interruption lands before or after both.
            with interrupts_deferred():
                yield write_result(result, again=again, real=reals.get(result.path))
    finally:
        results.close()  # the workers finish the file at hand, and start no other


class _ImportersCheck:
    """A changed file whose new code binds module-level names otherwise (`FileResult.rebound`) is
    migrated again, keeping those of them other files of its project import (`run.importers`)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._importers: Importers | None = None

    def checked(self, result: FileResult) -> FileResult:
        if not result.rebound:
            return result
        if self._importers is None:
            from tf24migrate.run.importers import Importers

            self._importers = Importers()
        found = self._importers.of(result.path, result.rebound)
        return migrate_file(result.path, self._settings.importing(found)) if found else result


def _migrated(
    files: Sequence[str], settings: Settings, jobs: int, texts: bool, cache: ResultCache | None = None
) -> Generator[FileResult, None, None]:
    """The results of `files`, in order: in worker processes when there are `jobs` and enough files,
    else here.

    Before any worker starts, this process migrates the first files no rule reads (a read and a
    text scan each), up to the first Python file the rules must read, or one that loaded them (a
    notebook, a C source): it then loads them and LibCST, and the workers forked for the rest
    inherit them, where each would import them (0.2 s of CPU: on a busy machine more workers cost
    more than they save). A small tree with nothing to do starts no worker.

    Meanwhile another process scans the files from the last one back (`workers.TailScan`), so that
    the load does not leave a core idle, and the workers are sent only the files it did not turn
    away, the first due ones it found first. It starts at the first file the rules must read, or
    after `_LEADING_BYTES` read here; from there, with two jobs the two processes scan as many
    files at once as two workers would, and go on until the rules must read a file or they meet;
    with more jobs, the workers start then (and each loads the rules if it meets a file they
    read). Only results without texts come from it (`texts` false): its results are sent back
    whole, when it stops. Where no process can be forked (Windows), there is no such scan: one
    started anew would first import the tool."""
    done = 0
    found = False  # whether files[done] is due (the rules must read it)
    tail: list[FileResult | None] = []  # the scan's results of files[first:]
    first = len(files)
    if jobs > 1 and len(files) >= _PARALLEL_FROM and "libcst" not in sys.modules:
        scan: TailScan | None = None
        # A scan's results come without texts, from a process forked with what is loaded here.
        scans = not texts and hasattr(os, "fork")
        read = 0
        try:
            while done < len(files) and "libcst" not in sys.modules:
                if scan is None and read >= _LEADING_BYTES:
                    if jobs > 2 or not scans or len(files) - done < _PARALLEL_FROM:
                        break
                    scan = _tail_scan(files, settings, cache)
                if scan is not None and scan.meets(done + 1):
                    break
                result = result_without_rules(files[done], settings, cache=cache)
                if result is None:
                    found = True
                    if scan is None and scans and len(files) - done > _PARALLEL_FROM:
                        scan = _tail_scan(files, settings, cache)
                        scan.meets(done + 1)
                    load_rules(settings)
                    break
                done += 1
                read += len(result.source or "")
                yield slim(result, texts)
            if scan is not None:
                first, tail = scan.results()
                tail = tail[max(0, done - first) :]  # a file both read: this process's result
                first = max(first, done)
        finally:
            if scan is not None:
                scan.close()
    middle = files[done:first]
    due = [files[first + n] for n, result in enumerate(tail) if result is None]
    alone = frozenset([*due, files[done]] if found else due)
    # The first due files the scan found go to the workers first, and their results wait here for
    # their turn: each takes a worker hundreds of times as long as a file turned away, and last in
    # line they would leave the other workers idle at the end.
    early, late = due[:_EARLY_DUE_FILES], due[_EARLY_DUE_FILES:]
    migrated = _migrated_rest([*early, *middle, *late], settings, jobs, texts, cache, alone)
    try:
        held = collections.deque(next(migrated) for _ in early)
        for index, result in enumerate(itertools.chain([None] * len(middle), tail)):
            if result is None:
                result = held.popleft() if index >= len(middle) and held else next(migrated)
            yield result
    finally:
        migrated.close()  # the workers finish the file at hand, and start no other


def _tail_scan(files: Sequence[str], settings: Settings, cache: ResultCache | None) -> TailScan:
    from tf24migrate.run.workers import TailScan  # not imported by a run that starts no process

    return TailScan(files, settings, cache)


def _migrated_rest(
    files: Sequence[str],
    settings: Settings,
    jobs: int,
    texts: bool,
    cache: ResultCache | None,
    alone: frozenset[str],
) -> Generator[FileResult, None, None]:
    """The results of `files`, in order: in worker processes (each file of `alone` in a chunk of its
    own) when there are `jobs` and enough files, else here."""
    if jobs > 1 and len(files) >= _PARALLEL_FROM:
        from tf24migrate.run import workers  # not imported by a run that needs none (a warm one)

        jobs = min(jobs, len(files), workers.jobs_the_open_files_allow())
        if jobs > 1:
            yield from workers.migrate_in_workers(files, settings, jobs, texts, cache, alone)
            return
    for path in files:
        yield slim(migrate_file(path, settings, cache=cache), texts)


def _look_up(
    path: str, cache: ResultCache, write: bool, started: int
) -> tuple[FileResult | str | None, os.stat_result | None]:
    """A file's cached result (a change as its digest, to be loaded again when its turn comes, so
    that its texts are not all held at once), or None: not cached, or not there; and the file's
    status, to index it by. A file the index knows by its times is not read; one it knows under
    other times is read and hashed here (the same bytes: the row serves); the others are not read
    here, but by the worker that migrates them. With `write`, a change is migrated again: what is
    written always comes from the file's own bytes, migrated now, never from an entry alone.
    `started`: a `time.time_ns()` from before any file was stat (`ResultCache.remember`)."""
    try:
        status = os.stat(path)
        known = cache.known(path, status)
        if known is None and cache.indexed(path):
            known = cache.known_bytes(path, digest(read_regular_file(path)[0]))
            if known is not None:
                content, result = known
                cache.remember(path, status, content, result, read_after=started)
    except OSError:
        return None, None
    if known is None:
        return None, status
    content, result = known
    if result is None:
        return (None if write else content), status
    return result, status


def _results_with_cache(
    files: Sequence[str], settings: Settings, jobs: int, cache: ResultCache, write: bool, texts: bool
) -> Generator[FileResult, None, None]:
    """The files' results (never written): those the cache's index knows (a change with its texts
    only if `texts`), and the others migrated (their changes stored); what was migrated is indexed
    once, at the end. To `write`, a change is always migrated again (`_look_up`)."""
    started = time.time_ns()  # before any file is stat or read: what makes their times racy
    found = [_look_up(path, cache, write, started) for path in files]
    misses = [path for path, (hit, _) in zip(files, found, strict=True) if hit is None]
    migrated = _migrated(misses, settings, jobs, False, cache)
    try:
        for path, (hit, status) in zip(files, found, strict=True):
            result = cache.load(path, hit, texts=texts) if isinstance(hit, str) else hit
            if result is None:  # not known (or its entry removed meanwhile by another run)
                result = next(migrated) if hit is None else migrate_file(path, settings, cache=cache)
                if status is not None and result.digest is not None and result.cacheable:
                    cache.remember(path, status, result.digest, result, read_after=started)
            yield slim(result, False)
    finally:
        migrated.close()
    cache.save_index()
    if misses:
        cache.prune()


def migrate_paths(
    paths: Iterable[str],
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    unsafe_fixes: bool = False,
    write: bool = False,
    jobs: int = 1,
    path_filter: PathFilter | None = None,
    target_version: str | None = None,
) -> Iterator[FileResult]:
    """Migrate every source file in `paths` (files, or folders walked for `*.py` and the other
    suffixes of `sources.kinds.SUFFIXES`, honouring ignore files and `path_filter`'s excludes).

    Yields one `FileResult` per file, in a stable order (sorted paths), whatever `jobs` is (0 means
    all cores). Files are written only when `write` is true; a file that cannot be read or parsed,
    or that changed on disk meanwhile, is reported as failed and the others go on. Raises
    `MissingPathError` for a path that does not exist (when the results are first asked for), and
    `TypeError` at once for an argument of the wrong type. `target_version` (`"2.3"`) is the oldest
    TensorFlow the code must still run on, for every file, as for `migrate_source`; without it,
    each file's target is read from its own project, as the command reads it: the metadata of the
    nearest folder above the file holding some (`tf24migrate.run.project_metadata`), else 2.4.
    """
    from tf24migrate.model import arguments
    from tf24migrate.model.target import target_of

    paths = arguments.paths_of("migrate_paths", paths)
    arguments.check_selectors("migrate_paths", "select", select)
    arguments.check_selectors("migrate_paths", "ignore", ignore)
    arguments.check_flag("migrate_paths", "unsafe_fixes", unsafe_fixes)
    arguments.check_flag("migrate_paths", "write", write)
    arguments.check_jobs("migrate_paths", jobs)
    arguments.check_optional_str("migrate_paths", "target_version", target_version)
    if path_filter is not None and not isinstance(path_filter, PathFilter):
        raise TypeError(
            f"migrate_paths: `path_filter` takes a PathFilter or None, not {type(path_filter).__name__}"
        )
    target = target_of(target_version, "the target_version argument")
    settings = Settings.selected(select, ignore, target=target, unsafe_fixes=unsafe_fixes)
    return _migrated_paths(paths, settings, write, jobs, path_filter, per_project=target_version is None)


def _migrated_paths(
    paths: list[str],
    settings: Settings,
    write: bool,
    jobs: int,
    path_filter: PathFilter | None,
    *,
    per_project: bool,
) -> Iterator[FileResult]:
    """The results of the files under `paths`, in order; with `per_project`, each file run with
    its own project's target (each run of consecutive files of one target together)."""
    files = list(iter_source_files(paths, SUFFIXES, path_filter))
    if not per_project:
        yield from migrate_files(files, settings, write=write, jobs=jobs)
        return
    from tf24migrate.run.project_metadata import Projects

    projects = Projects()
    for target, run in itertools.groupby(files, key=projects.target_of):
        yield from migrate_files(
            list(run), dataclasses.replace(settings, target=target), write=write, jobs=jobs
        )
