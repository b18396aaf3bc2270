"""Worker processes: files migrated in chunks, with a bounded number of chunks in flight, so the
results come back in the order of the files given and memory does not grow with their number.

Workers never write: they return the new code, and the main process writes it. Workers ignore
Ctrl-C and hang-ups (the main process tells them to stop after the file at hand) and die with the
main process, even when it is killed. A worker that dies (killed, out of memory) does not stop
the run: the files it held are reported as failed, and the others go on in new workers.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import os
import signal
import sys
import threading
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from tf24migrate.catalogue.selection import RuleSelection, select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import FileResult, Status
from tf24migrate.run.file import migrate_file, slim

if TYPE_CHECKING:
    from tf24migrate.run.cache import ResultCache

_CHUNKS_IN_FLIGHT_PER_JOB = 4


_worker_settings = Settings(())
_worker_stop = None
_worker_cache: ResultCache | None = None


def _start_worker(
    rules: RuleSelection | tuple[str, ...], settings: Settings, stop, parent: int, cache: ResultCache | None
) -> None:
    """Set a worker up with the run's rules (a selection, loaded when a file needs them, or codes),
    its other settings and the cache it stores its results in."""
    global _worker_settings, _worker_stop, _worker_cache
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when to stop
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _die_with(parent)
    selected = rules if isinstance(rules, RuleSelection) else select_rules(rules) if rules else ()
    _worker_settings = dataclasses.replace(settings, rules=selected)
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


def _migrate_chunk(paths: list[str], texts: bool) -> list[FileResult]:
    results = []
    for path in paths:
        if _worker_stop is not None and _worker_stop.is_set():
            break
        result = migrate_file(path, _worker_settings, cache=_worker_cache)
        results.append(slim(result, texts))
    return results


WORKER_DIED = (
    "not migrated: a worker process died (killed, or out of memory) while it held this file; the "
    "file was left unchanged: run the command again (with -j 1 to see which file it was)"
)


def _context():
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    # fork shares the imported engine with the workers: no re-import per process.
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def migrate_in_workers(
    files: Sequence[str],
    settings: Settings,
    jobs: int,
    texts: bool,
    cache: ResultCache | None = None,
) -> Generator[FileResult, None, None]:
    """The files' results (never written), from worker processes; when a worker dies, the files
    of the chunks in flight are failed results and the rest go on in a new pool."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    chunk_size = max(1, min(32, len(files) // (jobs * 8)))
    context = _context()
    stop = context.Event()
    rules = settings.rules
    selection = rules if isinstance(rules, RuleSelection) else tuple(rule.code for rule in rules)
    rest = dataclasses.replace(settings, rules=())  # the rules go as `selection`
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
                initargs=(selection, rest, stop, os.getpid(), cache),
            ) as pool:
                try:
                    while start < len(files) or pending:
                        if start < len(files) and len(pending) < jobs * _CHUNKS_IN_FLIGHT_PER_JOB:
                            chunk = list(files[start : start + chunk_size])
                            try:
                                future = pool.submit(_migrate_chunk, chunk, texts)
                            except BrokenProcessPool:  # a worker died meanwhile: a new pool takes it
                                break
                            start += len(chunk)
                            pending.append((future, chunk))
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


def jobs_the_open_files_allow() -> int:
    """How many worker processes the open-file limit (`ulimit -n`) leaves room for (at least 1)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return sys.maxsize
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return sys.maxsize
    return max(1, (soft - _FILES_KEPT) // _FILES_PER_JOB)
