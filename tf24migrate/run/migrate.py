"""Migrating files: read, migrate, and (when asked) write, one `FileResult` per file.

Many files run in worker processes, in chunks, with a bounded number of chunks in flight: the
results come back in the order of the files given, and memory does not grow with their number.
Workers never write: they return the new code, and the main process writes it (one writer, so
every write is reported). Workers ignore Ctrl-C and hang-ups (the main process tells them to stop
after the file at hand) and die with the main process, even when it is killed. A worker that dies
(killed, out of memory) does not stop the run: the files it held are reported as failed, and the
others go on in new workers.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from tf24migrate.model.errors import RuleError, SourceSyntaxError
from tf24migrate.model.findings import FileResult, Status
from tf24migrate.model.notes import without_notes
from tf24migrate.rules.base import Rule
from tf24migrate.rules.selection import RuleSelection, select_rules
from tf24migrate.run.cache import NOT_CACHED, read_bytes
from tf24migrate.run.discovery import Selection, iter_source_files
from tf24migrate.run.files import (
    ChangedOnDisk,
    SourceFile,
    UnreadableFile,
    decode_source,
    digest,
    interrupts_deferred,
    write_source,
)
from tf24migrate.sources.kinds import SUFFIXES, kind_of

if TYPE_CHECKING:
    from tf24migrate.run.cache import ResultCache

# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_FROM = 8
_CHUNKS_IN_FLIGHT_PER_JOB = 4


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def write_result(result: FileResult, again: Callable[[], FileResult] | None = None) -> FileResult:
    """Write a changed result's code over its file, unless the file changed since it was read.
    Then, with `again`, the file is migrated again from what it holds now (`again()`) and that
    result written, once: so two runs over one tree both keep their rewrites."""
    try:
        write_source(
            result.path,
            result.code or "",
            result.extra["encoding"],
            expected_digest=result.extra["digest"],
        )
    except ChangedOnDisk as error:
        if again is not None:
            fresh = again()
            return write_result(fresh) if fresh.changed else fresh
        return dataclasses.replace(result, status=Status.FAILED, error=str(error))
    except UnicodeEncodeError as error:
        return dataclasses.replace(
            result, status=Status.FAILED, error=f"cannot write: the new code does not fit in {error.encoding}"
        )
    except OSError as error:
        return dataclasses.replace(result, status=Status.FAILED, error=f"cannot write: {error}")
    return dataclasses.replace(result, written=True)


def migrate_file(
    path: str,
    rules: Sequence[Rule],
    *,
    unsafe_fixes: bool = False,
    write: bool = False,
    cache: ResultCache | None = None,
) -> FileResult:
    """Migrate one file; errors become a failed `FileResult` naming the reason and the place.
    With `cache`, the result (as it was before any write) is stored there for the next run."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        return FileResult(path=path, status=Status.FAILED, error=f"cannot read: {error.strerror or error}")
    try:
        source = decode_source(raw)
    except UnreadableFile as error:
        result = FileResult(path=path, status=Status.FAILED, error=f"cannot read: {error}")
    else:
        result = migrate_loaded(path, source, rules, unsafe_fixes=unsafe_fixes)
    if cache is not None:
        cache.store(path, result.extra.get("digest") or digest(raw), result)
    return write_result(result) if write and result.changed else result


def migrate_loaded(
    path: str, source: SourceFile, rules: Sequence[Rule], *, unsafe_fixes: bool = False
) -> FileResult:
    """Migrate a file already read (or a source from stdin, with a made-up `path`); never writes."""
    try:
        result = kind_of(path).migrate(source.text, rules, path=path, unsafe_fixes=unsafe_fixes)
    except SourceSyntaxError as error:
        return FileResult(
            path=path,
            status=Status.FAILED,
            source=source.text,
            error=f"{error.msg} at line {error.lineno}, column {error.offset}",
        )
    except RuleError as error:
        return FileResult(path=path, status=Status.FAILED, source=source.text, error=str(error))
    except Exception as error:  # a bug in a rule must not stop a run over thousands of files
        return FileResult(
            path=path,
            status=Status.FAILED,
            source=source.text,
            error=f"internal error ({type(error).__name__}: {error}); the file was left unchanged. "
            f"Please report this with the file",
            extra={NOT_CACHED: True},  # perhaps not a function of the content (a recursion limit)
        )
    if result.changed and result.edited is not None:
        from tf24migrate.engine.outside_edits import first_line_changed_outside  # LibCST ran: no cost

        line = first_line_changed_outside(source.text, result.code, result.edited)
        if line is not None:
            return FileResult(
                path=path,
                status=Status.FAILED,
                source=source.text,
                error=f"internal error: would change text outside the edited statements (line {line}); "
                "nothing written. Please report this with the file",
            )
    return FileResult(
        path=path,
        status=Status.CHANGED if result.changed else Status.UNCHANGED,
        source=source.text,
        code=result.code,
        findings=without_notes(result.findings, getattr(rules, "hidden_notes", frozenset())),
        extra={"encoding": source.encoding, "digest": digest(source.raw)} if result.changed else {},
    )


# --- worker processes -------------------------------------------------------------------------

_worker_rules: Sequence[Rule] = ()
_worker_stop = None
_worker_cache: ResultCache | None = None


def _start_worker(
    rules: RuleSelection | tuple[str, ...], stop, parent: int, cache: ResultCache | None
) -> None:
    """Set a worker up with the run's rules (a selection, loaded when a file needs them, or codes)
    and the cache it stores its results in."""
    global _worker_rules, _worker_stop, _worker_cache
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when to stop
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _die_with(parent)
    if not isinstance(rules, RuleSelection):
        rules = select_rules(rules) if rules else ()
    _worker_rules = rules
    _worker_stop = stop
    _worker_cache = cache


_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """End this worker when process `parent` ends, however it ends (even by SIGKILL): on Linux the
    kernel sends SIGKILL (prctl PR_SET_PDEATHSIG); elsewhere a thread watches the parent's pid."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
        if armed:
            if os.getppid() != parent:  # it ended before the prctl
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _migrate_chunk(paths: list[str], unsafe_fixes: bool, texts: bool) -> list[FileResult]:
    results = []
    for path in paths:
        if _worker_stop is not None and _worker_stop.is_set():
            break
        result = migrate_file(path, _worker_rules, unsafe_fixes=unsafe_fixes, cache=_worker_cache)
        results.append(_slim(result, texts))
    return results


WORKER_DIED = (
    "not migrated: a worker process died (killed, or out of memory) while it held this file; the "
    "file was left unchanged: run the command again (with -j 1 to see which file it was)"
)


def _slim(result: FileResult, texts: bool) -> FileResult:
    if texts or result.status is Status.CHANGED:
        return result
    return dataclasses.replace(result, source=None, code=None)


def _context():
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    # fork shares the imported engine with the workers: no re-import per process.
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _migrate_in_parallel(
    files: Sequence[str],
    rules: Sequence[Rule],
    unsafe_fixes: bool,
    jobs: int,
    texts: bool,
    cache: ResultCache | None = None,
) -> Iterator[FileResult]:
    """The files' results (never written), from worker processes; when a worker dies, the files
    of the chunks in flight are failed results and the rest go on in a new pool."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    chunk_size = max(1, min(32, len(files) // (jobs * 8)))
    context = _context()
    stop = context.Event()
    selection = rules if isinstance(rules, RuleSelection) else tuple(rule.code for rule in rules)
    pending: collections.deque = collections.deque()  # (future, its files)
    start = 0
    # The forked workers share the parent's objects; freezing them keeps the workers' garbage
    # collector from scanning (and so copying) every inherited page.
    gc.freeze()
    try:
        while start < len(files):
            with ProcessPoolExecutor(
                jobs,
                mp_context=context,
                initializer=_start_worker,
                initargs=(selection, stop, os.getpid(), cache),
            ) as pool:
                try:
                    while start < len(files) or pending:
                        if start < len(files) and len(pending) < jobs * _CHUNKS_IN_FLIGHT_PER_JOB:
                            chunk = list(files[start : start + chunk_size])
                            start += len(chunk)
                            pending.append((pool.submit(_migrate_chunk, chunk, unsafe_fixes, texts), chunk))
                            continue
                        future, chunk = pending[0]
                        try:
                            results = future.result()
                        except BrokenProcessPool:
                            break
                        pending.popleft()
                        yield from results
                except (
                    BaseException
                ):  # Ctrl-C, or the consumer stopped: finish the file at hand, start no other
                    stop.set()
                    for future, _ in pending:
                        future.cancel()
                    raise
            while pending:  # the pool broke: a worker died
                _, chunk = pending.popleft()
                for path in chunk:
                    yield FileResult(path=path, status=Status.FAILED, error=WORKER_DIED)
    finally:
        gc.unfreeze()


# Open files: those of the main process, and those each worker costs it (pipes, a sentinel).
_FILES_KEPT = 24
_FILES_PER_JOB = 4


def _jobs_open_files_allow() -> int:
    """How many worker processes the open-file limit (`ulimit -n`) leaves room for (at least 1)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return sys.maxsize
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return sys.maxsize
    return max(1, (soft - _FILES_KEPT) // _FILES_PER_JOB)


def migrate_files(
    files: Sequence[str],
    rules: Sequence[Rule],
    *,
    unsafe_fixes: bool = False,
    write: bool = False,
    jobs: int = 1,
    texts: bool = True,
    cache: ResultCache | None = None,
) -> Iterator[FileResult]:
    """Migrate `files` with `jobs` processes (0: all cores), yielding results in the order given.

    With `texts` false, only changed files' results carry `source` and `code` (less to hold and
    to send between processes). With `cache` (and `texts` false), results are looked up there in
    this process first; only the files missing there are migrated (in workers, which store their
    results). Every write is made here, through the same checks, a cached change's too.
    """
    jobs = min(jobs or default_jobs(), _jobs_open_files_allow())
    if cache is not None:
        if texts:
            raise ValueError("a cache keeps no texts of unchanged files: pass texts=False with it")
        results = _results_with_cache(files, rules, unsafe_fixes, jobs, cache)
    elif jobs > 1 and len(files) >= _PARALLEL_FROM:
        results = _migrate_in_parallel(files, rules, unsafe_fixes, min(jobs, len(files)), texts)
    else:
        results = (_slim(migrate_file(path, rules, unsafe_fixes=unsafe_fixes), texts) for path in files)
    try:
        for result in results:
            if not (write and result.changed):
                yield result
                continue
            # A write and its report are one step: an interruption lands before or after both.
            with interrupts_deferred():
                yield write_result(
                    result,
                    again=lambda path=result.path: migrate_file(path, rules, unsafe_fixes=unsafe_fixes),
                )
    finally:
        results.close()  # the workers finish the file at hand, and start no other


def _look_up(path: str, cache: ResultCache) -> FileResult | str | None:
    """A file's cached result (a changed one as its digest, to be loaded again when its turn
    comes, so that its texts are not all held at once), or None: not cached, or not readable."""
    try:
        content = digest(read_bytes(path)[0])
    except OSError:
        return None
    result = cache.load(path, content, texts=False)
    if result is not None and result.status is Status.CHANGED:
        return content
    return result


def _results_with_cache(
    files: Sequence[str], rules: Sequence[Rule], unsafe_fixes: bool, jobs: int, cache: ResultCache
) -> Iterator[FileResult]:
    """The files' results (never written): those in `cache`, and the others migrated (and stored)."""
    found = [_look_up(path, cache) for path in files]
    misses = [path for path, hit in zip(files, found, strict=True) if hit is None]
    if jobs > 1 and len(misses) >= _PARALLEL_FROM:
        migrated = _migrate_in_parallel(misses, rules, unsafe_fixes, min(jobs, len(misses)), False, cache)
    else:
        migrated = (
            _slim(migrate_file(path, rules, unsafe_fixes=unsafe_fixes, cache=cache), False) for path in misses
        )
    try:
        for path, hit in zip(files, found, strict=True):
            if hit is None:
                yield next(migrated)
                continue
            result = cache.load(path, hit) if isinstance(hit, str) else hit
            if result is None:  # removed meanwhile by another run
                result = migrate_file(path, rules, unsafe_fixes=unsafe_fixes, cache=cache)
            yield _slim(result, False)
    finally:
        migrated.close()
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
    selection: Selection | None = None,
    target_version: str | None = None,
) -> Iterator[FileResult]:
    """Migrate every source file in `paths` (files, or folders walked for `*.py` and the other
    suffixes of `sources.kinds.SUFFIXES`, honouring ignore files and `selection`'s excludes).

    Yields one `FileResult` per file, in a stable order (sorted paths), whatever `jobs` is (0 means
    all cores). Files are written only when `write` is true; a file that cannot be read or parsed,
    or that changed on disk meanwhile, is reported as failed and the others go on. Raises
    `MissingPathError` for a path that does not exist. `target_version` (`"2.3"`) is the oldest
    TensorFlow the code must still run on, as for `migrate_source` (default: 2.4; the project's
    metadata is not read: `tf24migrate.run.project_metadata.project_target(path)` reads it).
    """
    from tf24migrate.model.target import target_of

    rules = RuleSelection(select, ignore, target_of(target_version, "the target_version argument"))
    rules.check()
    files = list(iter_source_files(paths, SUFFIXES, selection))
    yield from migrate_files(files, rules, unsafe_fixes=unsafe_fixes, write=write, jobs=jobs)
