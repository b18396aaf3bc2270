"""Migrating many files: in this process or in worker processes (`run.workers`), through the
result cache (`run.cache`) when there is one, with every write made here, in the order of the
files given (one writer, so every write is reported).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import FileResult, Status
from tf24migrate.run.cache import read_bytes
from tf24migrate.run.discovery import PathFilter, iter_source_files
from tf24migrate.run.file import migrate_file, slim, write_result
from tf24migrate.run.files import (
    digest,
    interrupts_deferred,
)
from tf24migrate.run.workers import jobs_the_open_files_allow, migrate_in_workers
from tf24migrate.sources.kinds import SUFFIXES

if TYPE_CHECKING:
    from tf24migrate.run.cache import ResultCache

# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_FROM = 8


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
    results). Every write is made here, through the same checks, a cached change's too.
    """
    jobs = min(jobs or default_jobs(), jobs_the_open_files_allow())
    if cache is not None:
        if texts:
            raise ValueError("a cache keeps no texts of unchanged files: pass texts=False with it")
        results = _results_with_cache(files, settings, jobs, cache)
    elif jobs > 1 and len(files) >= _PARALLEL_FROM:
        results = migrate_in_workers(files, settings, min(jobs, len(files)), texts)
    else:
        results = (slim(migrate_file(path, settings), texts) for path in files)
    try:
        for result in results:
            if write and result.changed and choose is not None:
                result = choose(result)
            if not (write and result.changed):
                yield result
                continue

            def again(path: str = result.path) -> FileResult:
                fresh = migrate_file(path, settings)
                return choose(fresh) if choose is not None and fresh.changed else fresh

            # A write and its report are one step: an interruption lands before or after both.
            with interrupts_deferred():
                yield write_result(result, again=again)
    finally:
        results.close()  # the workers finish the file at hand, and start no other


def _look_up(path: str, cache: ResultCache) -> FileResult | str | None:
    """A file's cached result (a changed one as its digest, to be loaded again when its turn
    comes, so that its texts are not all held at once), or None: not cached, or not readable. A
    file the cache's index shows unchanged is not even read."""
    try:
        status = os.stat(path)
        known = cache.known(path, status)
        if known is not None:
            content, result = known
            return content if result is None else result
        content = digest(read_bytes(path)[0])
    except OSError:
        return None
    result = cache.load(path, content, texts=False)
    if result is not None:
        cache.remember(path, status, content, result)
    if result is not None and result.status is Status.CHANGED:
        return content
    return result


def _results_with_cache(
    files: Sequence[str], settings: Settings, jobs: int, cache: ResultCache
) -> Generator[FileResult, None, None]:
    """The files' results (never written): those in `cache`, and the others migrated (and stored)."""
    found = [_look_up(path, cache) for path in files]
    misses = [path for path, hit in zip(files, found, strict=True) if hit is None]
    if jobs > 1 and len(misses) >= _PARALLEL_FROM:
        migrated = migrate_in_workers(misses, settings, min(jobs, len(misses)), False, cache)
    else:
        migrated = (slim(migrate_file(path, settings, cache=cache), False) for path in misses)
    try:
        for path, hit in zip(files, found, strict=True):
            if hit is None:
                yield next(migrated)
                continue
            result = cache.load(path, hit) if isinstance(hit, str) else hit
            if result is None:  # removed meanwhile by another run
                result = migrate_file(path, settings, cache=cache)
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
    `MissingPathError` for a path that does not exist. `target_version` (`"2.3"`) is the oldest
    TensorFlow the code must still run on, as for `migrate_source` (default: 2.4; the project's
    metadata is not read: `tf24migrate.run.project_metadata.project_target(path)` reads it).
    """
    from tf24migrate.model.target import target_of

    target = target_of(target_version, "the target_version argument")
    settings = Settings.selected(select, ignore, target=target, unsafe_fixes=unsafe_fixes)
    files = list(iter_source_files(paths, SUFFIXES, path_filter))
    yield from migrate_files(files, settings, write=write, jobs=jobs)
