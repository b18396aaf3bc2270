"""Worker processes: files migrated in chunks, with a bounded number of chunks in flight, so the
results come back in the order of the files given and memory does not grow with their number;
and the scan of a run's last files (`TailScan`) while the main process loads the rules.

Workers never write: they return the new code, and the main process writes it. Workers ignore
Ctrl-C and hang-ups (the main process tells them to stop after the file at hand) and die with the
main process, even when it is killed. A worker that dies (killed, out of memory) does not stop
the run: the files it held are reported as failed, and the others go on in new workers.
"""

from __future__ import annotations

import collections
import ctypes
import dataclasses
import os
import pickle
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from tf24migrate.catalogue.selection import RuleSelection, select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import FileResult, Status
from tf24migrate.run.migrate_file import migrate_file, result_without_rules, slim
from tf24migrate.sources.kinds import PYTHON, kind_of

if TYPE_CHECKING:
    from tf24migrate.run.cache import ResultCache

_CHUNKS_IN_FLIGHT_PER_JOB = 4


_worker_settings = Settings(())
_worker_stop = None
_worker_cache: ResultCache | None = None
_worker_slot: tuple[_Board, int] | None = None
_worker_spills: str | None = None


def _start_worker(
    rules: RuleSelection | tuple[str, ...],
    settings: Settings,
    stop,
    parent: int,
    cache: ResultCache | None,
    board: _Board,
    spills: str | None,
) -> None:
    """Set a worker up with the run's rules (a selection, loaded when a file needs them, or codes),
    its other settings, the cache it stores its results in, its slot on the `board` of files at
    hand, and the folder its large results go through (`_sent`)."""
    global _worker_settings, _worker_stop, _worker_cache, _worker_slot, _worker_spills
    _obey(parent)
    _worker_slot = (board, board.take_slot())
    # Not the main process's handler (a SIGTERM there stops the run): the worker ends, noting when.
    signal.signal(signal.SIGTERM, _end_on_sigterm)
    selected = rules if isinstance(rules, RuleSelection) else select_rules(rules) if rules else ()
    _worker_settings = dataclasses.replace(settings, rules=selected)
    _worker_stop = stop
    _worker_cache = cache
    _worker_spills = spills


def _obey(parent: int) -> None:
    """Ignore Ctrl-C and hang-ups (the main process `parent` decides when this process stops) and
    die with `parent`: a worker's set-up, and a tail scan's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _die_with(parent)


def _end_on_sigterm(signum, frame) -> None:
    """Note on the board when this worker was told to end (the first of a pool's workers to end
    is the one killed from outside; the pool ends the others after it), then end by the signal."""
    if _worker_slot is not None:
        board, slot = _worker_slot
        board.ended(slot)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """End this worker when process `parent` ends, however it ends (even by SIGKILL): on Linux the
    kernel sends SIGKILL (prctl PR_SET_PDEATHSIG); elsewhere a thread watches the parent's pid."""
    if sys.platform.startswith("linux"):
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


def _migrate_chunk(paths: list[str], texts: bool) -> bytes | str:
    results = []
    for path in paths:
        if _worker_stop is not None and _worker_stop.value:
            break
        if _worker_slot is not None:
            board, slot = _worker_slot
            board.write(slot, path)
        result = migrate_file(path, _worker_settings, cache=_worker_cache)
        results.append(slim(result, texts))
    return _sent(results)


# The pool's workers send their results through one pipe, each message under a lock. A worker
# killed while writing a message would leave half of it there, and the pool's reader would wait
# for the rest forever (while the other workers wait for the lock): the pool would never learn
# of the death. A write to a pipe of at most PIPE_BUF bytes (4096 on Linux, 512 at least by POSIX)
# is whole or not at all, so a chunk's results travel in a message that small (with room for the
# pool's envelope): pickled, or, when longer, as the name of the file they are written to.
_SMALL_MESSAGE = getattr(select, "PIPE_BUF", 512) - 256


def _sent(results: list[FileResult]) -> bytes | str:
    """A chunk's results as the worker returns them: pickled, or the file they are pickled into."""
    data = pickle.dumps(results, pickle.HIGHEST_PROTOCOL)
    if len(data) <= _SMALL_MESSAGE or _worker_spills is None:
        return data
    global _spilled
    _spilled += 1
    path = os.path.join(_worker_spills, f"{os.getpid()}-{_spilled}")
    with open(path, "wb") as file:
        file.write(data)
    return path


_spilled = 0


def _received(message: bytes | str) -> list[FileResult]:
    """The results a worker sent (`_sent`); a file is read once, and removed."""
    if isinstance(message, bytes):
        return pickle.loads(message)
    with open(message, "rb") as file:
        data = file.read()
    os.unlink(message)
    return pickle.loads(data)


WORKER_DIED = (
    "not migrated: a worker process died (killed, or out of memory) while it held this file; the "
    "file was left unchanged: run the command again (with -j 1 to see which file it was)"
)


def _worker_killed(signal_name: str) -> str:
    return (
        f"not migrated: its worker process was killed by {signal_name} while migrating it (out of "
        "memory, or killed from outside); the file was left unchanged"
    )


class _Board:
    """Which file each worker of a pool has at hand, in shared memory: a slot per worker, with its
    process id, so that the file of a worker that died is known."""

    _SLOT = 4096

    def __init__(self, context, jobs: int) -> None:
        self.paths = context.Array(ctypes.c_char, jobs * self._SLOT, lock=False)
        self.pids = context.Array(ctypes.c_int, jobs, lock=False)
        self.taken = context.RawValue(ctypes.c_int, 0)
        self.ended_at = context.Array(ctypes.c_double, jobs, lock=False)  # monotonic, on SIGTERM
        # Only the workers take it, to number their slots: the main process reads the board
        # without it, as a worker killed while holding it would leave it held.
        self._taking = context.Lock()

    def take_slot(self) -> int:
        with self._taking:
            slot = self.taken.value
            self.taken.value += 1
        if slot < len(self.pids):
            self.pids[slot] = os.getpid()
        return slot

    def write(self, slot: int, path: str) -> None:
        if slot < len(self.pids):
            data = os.fsencode(path)[: self._SLOT - 1] + b"\0"
            start = slot * self._SLOT
            self.paths[start : start + len(data)] = data

    def ended(self, slot: int) -> None:
        if slot < len(self.pids):
            self.ended_at[slot] = time.monotonic()

    def _slot_of(self, pid: int) -> int | None:
        for slot in range(min(self.taken.value, len(self.pids))):
            if self.pids[slot] == pid:
                return slot
        return None

    def at_hand(self, pid: int) -> str | None:
        slot = self._slot_of(pid)
        if slot is None:
            return None
        start = slot * self._SLOT
        return os.fsdecode(self.paths[start : start + self._SLOT].split(b"\0", 1)[0]) or None

    def ended_first(self, pids: list[int]) -> int | None:
        """Of `pids`, the worker that noted its end first."""
        times = {pid: self.ended_at[slot] for pid in pids if (slot := self._slot_of(pid)) is not None}
        times = {pid: at for pid, at in times.items() if at}
        return min(times, key=times.__getitem__) if times else None


def _deaths(processes: dict, board: _Board) -> dict[str, str]:
    """The files whose worker died, with the signal it died of: the workers killed by a signal
    other than the SIGTERM with which the pool ends the others; when all ended by SIGTERM, the
    first to end. `processes` are every worker the pool started (it forgets a broken pool's)."""
    dead = {}
    for process in list(processes.values()):
        process.join(5)  # the pool ends the others at once
        if process.exitcode is not None and process.exitcode < 0:
            dead[process.pid] = -process.exitcode
    killed = {pid: number for pid, number in dead.items() if number != signal.SIGTERM}
    if not killed and dead:  # all ended by SIGTERM: the first one was killed from outside
        first = board.ended_first(list(dead))
        killed = {first: signal.SIGTERM} if first is not None else dead
    found = {}
    for pid, number in killed.items():
        path = board.at_hand(pid)
        if path is not None:
            found[path] = signal.Signals(number).name
    return found


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
    alone: frozenset[str] = frozenset(),
) -> Generator[FileResult, None, None]:
    """The files' results (never written), from worker processes, in the order given. When a
    worker dies, the file it was migrating fails, naming the signal, and the other files in flight
    are migrated again in a new pool (failed too only when the file at hand cannot be told).

    Files are sent in chunks, each file of `alone` in one of its own: those known to be due (the
    rules read them), which take a worker hundreds of times as long as a file turned away, so that
    a few of them are not queued behind each other in one chunk while the other workers idle."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    chunk_size = max(1, min(32, len(files) // (jobs * 8)))
    context = _context()
    # Shared memory read and written without a lock: a worker killed while it held a lock (its
    # SIGTERM handler runs wherever it is) would leave it held, and every worker after it waiting.
    stop = context.RawValue(ctypes.c_bool, False)
    rules = settings.rules
    selection = rules if isinstance(rules, RuleSelection) else tuple(rule.code for rule in rules)
    rest = dataclasses.replace(settings, rules=())  # the rules go as `selection`
    # In order: (future, its files) or (None, [a failed result]).
    pending: collections.deque = collections.deque()
    again: list[str | FileResult] = []  # what a broken pool left: files to migrate, results to give
    start = 0
    try:
        spills: str | None = tempfile.mkdtemp(prefix="tf24migrate-results-")  # private to this user (0700)
    except OSError:  # no temporary folder: every result through the pipe
        spills = None
    try:
        while start < len(files) or again:
            board = _Board(context, jobs)
            with ProcessPoolExecutor(
                jobs,
                mp_context=context,
                initializer=_start_worker,
                initargs=(selection, rest, stop, os.getpid(), cache, board, spills),
            ) as pool:
                # Every worker, kept here: a broken pool may drop them before their exit is read.
                processes: dict = {}
                try:
                    for item in again:  # the files in flight when the last pool broke, in order
                        if isinstance(item, FileResult):
                            pending.append((None, [item]))
                        else:
                            pending.append((pool.submit(_migrate_chunk, [item], texts), [item]))
                    again = []
                    while start < len(files) or pending:
                        if start < len(files) and len(pending) < jobs * _CHUNKS_IN_FLIGHT_PER_JOB:
                            chunk = list(files[start : start + chunk_size])
                            due = next((n for n, path in enumerate(chunk) if path in alone), None)
                            if due is not None:
                                chunk = chunk[: due or 1]
                            future = pool.submit(_migrate_chunk, chunk, texts)
                            processes.update(getattr(pool, "_processes", None) or {})
                            start += len(chunk)
                            pending.append((future, chunk))
                            continue
                        future, chunk = pending[0]
                        results = chunk if future is None else _received(future.result())
                        pending.popleft()
                        yield from results
                except BrokenProcessPool:  # a worker died: its file fails, the others go on
                    processes.update(getattr(pool, "_processes", None) or {})
                    # The pool's own thread ends and reaps the others: it is waited for first, as
                    # of two waits for one process at once, one gets no exit status (ECHILD), and
                    # a death read there as none blamed the wrong file.
                    pool.shutdown(wait=True)
                    deaths = _deaths(processes, board)
                    for future, chunk in pending:
                        if future is not None and future.done() and future.exception() is None:
                            again += _received(future.result())  # done before the break: kept
                            continue
                        for item in chunk:
                            if isinstance(item, FileResult) or not deaths:
                                failed = item if isinstance(item, FileResult) else None
                                again.append(
                                    failed or FileResult(path=item, status=Status.FAILED, error=WORKER_DIED)
                                )
                            elif item in deaths:
                                error = _worker_killed(deaths[item])
                                again.append(FileResult(path=item, status=Status.FAILED, error=error))
                            else:
                                again.append(item)
                    pending.clear()
                except (
                    BaseException
                ):  # Ctrl-C, or the consumer stopped: finish the file at hand, start no other
                    stop.value = True
                    for future, _ in pending:
                        if future is not None:
                            future.cancel()
                    raise
    finally:
        if spills is not None:
            shutil.rmtree(spills, ignore_errors=True)  # with what a worker killed while writing left


_TAIL_FILES = 2048  # about 1 MB of results; while the rules load, a scan reads 500-1,000 files


class TailScan:
    """A process that reads and scans the last of `files`, from the last one back, as
    `result_without_rules` does, while the main process goes on from the first: a run's main
    process loads LibCST and the rules (0.15 s) when it meets the first file they must read, and
    meanwhile the other core turns away the files no rule can fire in. The workers forked after
    the load inherit the rules (one import per run, not one per worker) and are sent only what is
    left: the files between the two, and those the scan found due.

    The main process claims each file before it reads it (`meets`); the scan stops before a file
    claimed, when asked (`results`), or after `_TAIL_FILES` files: their results wait for all the
    files before them, and memory must not grow with a tree's size. A file both read (the claim
    came as the scan took it) has its two results alike, and the caller keeps its own. Files of
    other kinds (notebooks, C sources) are left to the workers, as they may need LibCST: the scan
    never loads it. The caller ends it with `close`, whether or not it asked for its results."""

    def __init__(self, files: Sequence[str], settings: Settings, cache: ResultCache | None) -> None:
        context = _context()
        self._files = files
        self._claimed = context.RawValue(ctypes.c_long, 0)  # by the main process: files[:claimed]
        self._stop = context.RawValue(ctypes.c_bool, False)
        self._receiving, sending = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_scan_tail,
            args=(files, settings, cache, self._claimed, self._stop, sending, os.getpid()),
            daemon=True,
        )
        self._process.start()
        sending.close()

    def meets(self, claimed: int) -> bool:
        """Claim `files[:claimed]` for the main process; whether the scan has ended (it reached a
        claimed file, or died)."""
        self._claimed.value = claimed
        return self._receiving.poll()

    def results(self) -> tuple[int, list[FileResult | None]]:
        """Stop the scan after its file at hand: (the index of the first file it read, the result
        of each file from there to the last, None for a file left to the workers). A scan that
        died read none."""
        self._stop.value = True
        try:
            first, results = pickle.loads(self._receiving.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            first, results = len(self._files), []
        return first, results

    def close(self) -> None:
        """End the scan (at once, if it is still reading: it writes nothing but its results) and
        reap it."""
        self._receiving.close()
        if self._process.exitcode is None:
            self._process.kill()
        self._process.join()


def _scan_tail(files: Sequence[str], settings: Settings, cache, claimed, stop, sending, parent: int) -> None:
    _obey(parent)
    try:
        results: list[FileResult | None] = []
        first = len(files)
        while first > claimed.value and not stop.value and len(results) < _TAIL_FILES:
            path = files[first - 1]
            result = result_without_rules(path, settings, cache=cache) if kind_of(path) is PYTHON else None
            results.append(None if result is None else slim(result, False))
            first -= 1
        results.reverse()
        sending.send_bytes(pickle.dumps((first, results), pickle.HIGHEST_PROTOCOL))
    except BaseException:  # the workers migrate these files, and report what went wrong
        os._exit(1)
    sending.close()


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
