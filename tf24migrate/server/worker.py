"""Migrations off the server's event loop: one worker process runs them, one at a time, with a
time limit. The worker is started when the editor connects (`initialize`), loads the engine and
migrates a small text before it takes any job, and is kept between jobs: the time limit counts a
job's migration only, from the moment the worker takes it (`_STARTED`), never its start-up. A
migration over its limit, or a worker that dies, is ended by ending the process, and another is
started at once, so the next change finds it warm. The worker keeps what a job needs between jobs
(each folder's settings, the rules loaded, LibCST imported), until the server's configuration
changes.

A job migrates the document's text as the server holds it, never the file on disk, with the
settings the command line would use for its path (`cli.groups`). The command's result cache is
read and written only for a text that is the file's on disk, under the key the command uses for
those bytes: an unsaved text has no bytes on disk to key it by, and storing every keystroke's text
would fill the cache with entries no run ever reads again. The file on disk is read only if it is a
regular file no larger than `MAX_DISK_BYTES` (a document named `/dev/zero`, a FIFO, a device: the
editor's text is what counts). A cache folder is used only once the command made one: opening a
file in the editor creates no folder in the project.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING

from tf24migrate.model.findings import FileResult, Finding, Status
from tf24migrate.rules.text import forget_last_texts
from tf24migrate.server.heap import give_back, keep_big_blocks_apart
from tf24migrate.server.narrowing import Narrowed, narrow

if TYPE_CHECKING:
    from tf24migrate.server.settings import EditorSettings

# What the worker sends when it takes a job, before migrating it: the time limit starts there.
_STARTED = "started"
_WARM_UP = "import tensorflow as tf\nstrategy.experimental_run_v2(step)\n"
# The largest file read from disk to tell whether the document's text is the file's (the cache).
MAX_DISK_BYTES = 16 * 1024 * 1024
# The characters of a text after whose job the worker gives its free memory back (`heap.give_back`).
BIG_TEXT = 1024 * 1024
SHUTTING_DOWN = "not checked: the server is shutting down"
_WATCH = 0.5  # seconds between two looks of the worker at its server (`_end_with_the_server`)


@dataclass(frozen=True)
class Job:
    """One document to migrate: its path (for the settings, the cache and the findings), its text,
    the editor's settings and the configuration's generation (a new one drops what the worker
    kept). With `declined`, the text is migrated with those findings' fixes left out."""

    path: str
    text: str
    settings: EditorSettings
    generation: int
    declined: tuple[Finding, ...] | None = None
    pages: str | None = None  # the folder where each rule's page is written, for the links
    # The server's: the text as UTF-8, as it holds it (`text` then ""), sent as it is; the worker
    # gets it back as `text`.
    data: bytes | None = None


@dataclass(frozen=True)
class Outcome:
    """A job's result: the findings and the migrated text, or why there are none (`failure`: a
    configuration that cannot be used, a text that does not parse, a time limit, an internal error)."""

    findings: tuple[Finding, ...] = ()
    code: str | None = None  # None: not migrated
    failure: str | None = None
    unsafe_fixes: bool = False
    failure_code: str | None = None  # the note a failure is (a syntax error's), if any
    # The migrated text is the job's own: the worker says so rather than send a copy back, and
    # `Worker` puts the job's text in (its `data`, else `code`): a big document is then held once
    # by the server.
    unchanged: bool = False
    # The server's: the migrated text as UTF-8 (`code` then None), as the server holds its
    # documents (`documents.encode`); `migrated()` decodes it when asked.
    encoded: bytes | None = None

    def migrated(self) -> str | None:
        """The migrated text (None: not migrated)."""
        return self.code if self.encoded is None else self.encoded.decode("utf-8", "surrogatepass")

    def migrated_data(self) -> bytes | None:
        """The migrated text as UTF-8 (None: not migrated), as the server compares and edits it."""
        if self.encoded is not None or self.code is None:
            return self.encoded
        return self.code.encode("utf-8", "surrogatepass")


class _State:
    """What the worker process keeps between jobs of one configuration generation."""

    generation = -1
    groups: dict = {}
    caches: dict = {}


def _group(job: Job):
    """The settings (`cli.groups.Group`) of `job.path`, as the command line would use them
    (its `per-file-ignores` included)."""
    from tf24migrate.cli.groups import file_group, groups_of

    if job.generation != _State.generation:
        _State.generation, _State.groups, _State.caches = job.generation, {}, {}
    key = (job.path, job.settings)
    if key not in _State.groups:
        (group,) = groups_of([job.path], job.settings.options)
        _State.groups[key] = file_group(group, job.path)
    return _State.groups[key]


def _cache(group):
    """The group's result cache, if the command created its folder; else None."""
    from tf24migrate.run.cache import ResultCache, run_key

    if group.cache_dir is None or not os.path.isdir(os.path.join(group.cache_dir, "results")):
        return None
    if id(group) not in _State.caches:  # the groups live as long as the caches (`_group`)
        _State.caches[id(group)] = ResultCache(group.cache_dir, run_key(group.settings))
    return _State.caches[id(group)]


def _on_disk(path: str, text: str):
    """The file at `path` as the command reads it (`SourceFile`), when it is a regular file of at
    most `MAX_DISK_BYTES` that holds `text`; else None."""
    from tf24migrate.run.files import UnreadableFile, open_regular_file
    from tf24migrate.run.migrate_file import decode_file

    try:
        fd = open_regular_file(path)
    except (OSError, ValueError):  # ValueError: a NUL in the path (`file:///%00`)
        return None
    try:
        with open(fd, "rb") as handle:
            raw = handle.read(MAX_DISK_BYTES + 1)
        if len(raw) > MAX_DISK_BYTES:
            return None
        source = decode_file(path, raw)
    except (OSError, UnreadableFile):
        return None
    return source if source.text == text else None


def _migrate(job: Job, group, disk: bool = True) -> FileResult:
    """Migrate the job's text, through the result cache when it is the file's on disk (the result
    stored is then the file's: its encoding, its bytes' digest; not looked at without `disk`). The text migrated is the job's
    own object, not the copy decoded from the disk, and without its bytes (`SourceFile.raw`
    None: the worker never writes): a second copy of a big document costs 2-4 bytes a character
    beyond Latin-1."""
    from tf24migrate.run.files import SourceFile, digest
    from tf24migrate.run.migrate_file import kept_for_importers, migrate_loaded

    on_disk = _on_disk(job.path, job.text) if disk else None
    if on_disk is None:
        source = SourceFile(job.text, "utf-8", None)
        return kept_for_importers(
            job.path, source, group.settings, migrate_loaded(job.path, source, group.settings)
        )
    encoding, key = on_disk.encoding, digest(on_disk.raw or b"")
    del on_disk  # its bytes and its text: the job's text is the same
    source = SourceFile(job.text, encoding, None)
    cache = _cache(group)
    cached = cache.load(job.path, key) if cache is not None else None
    if cached is not None:
        return kept_for_importers(job.path, source, group.settings, cached)
    result = migrate_loaded(job.path, source, group.settings)
    if result.changed:
        result = dataclasses.replace(result, digest=key)
    if cache is not None:
        cache.store(job.path, key, result)
    return kept_for_importers(job.path, source, group.settings, result)


def run_job(job: Job, disk: bool = True) -> Outcome:
    """Migrate `job`'s text (in the worker process); every failure is an `Outcome.failure`.
    Without `disk`, the text is not the file's (`narrowing`): the file is not read."""
    from tf24migrate.model.errors import UnknownRuleError
    from tf24migrate.model.target import TargetVersionError
    from tf24migrate.run.config import ConfigError

    try:
        group = _group(job)
    except (ConfigError, UnknownRuleError, TargetVersionError) as error:
        return Outcome(failure=f"the configuration cannot be used: {error}")
    if job.declined is not None:
        from tf24migrate.run.importers import Importers, rebound
        from tf24migrate.run.migrate_file import migrate_declining

        source = FileResult(path=job.path, status=Status.UNCHANGED, source=job.text)
        declined = migrate_declining(source, group.settings, job.declined)
        found = Importers().of(job.path, rebound(job.text, declined.code))
        if found:  # as `kept_for_importers`
            declined = migrate_declining(source, group.settings.importing(found), job.declined)
        return Outcome(declined.findings, declined.code, unsafe_fixes=group.settings.unsafe_fixes)
    result = _migrate(job, group, disk)
    if job.pages is not None:
        _write_pages(job.pages, result.findings)
    if result.status is Status.FAILED:  # shown as one diagnostic of its own, not as a finding too
        from tf24migrate.model.notes import SYNTAX_ERROR

        findings = tuple(f for f in result.findings if f.code != SYNTAX_ERROR.code)
        return Outcome(
            findings,
            failure=result.error,
            unsafe_fixes=group.settings.unsafe_fixes,
            failure_code=SYNTAX_ERROR.code if len(findings) < len(result.findings) else None,
        )
    if result.code is None or result.status is Status.UNCHANGED:
        return Outcome(result.findings, unchanged=True, unsafe_fixes=group.settings.unsafe_fixes)
    return Outcome(result.findings, result.code, unsafe_fixes=group.settings.unsafe_fixes)


def _run_narrowed(job: Job, narrowed: Narrowed) -> Outcome:
    """Migrate the stand-in text `job` holds (`narrowing`), and answer for the text itself: the
    characters put back in what the findings quote (and in the migrated text as it is encoded,
    `_parts`). A failure (a character beyond the plane in a name makes the stand-in text
    unreadable) is migrated again from the text itself."""
    answer = run_job(job, disk=False)
    if answer.failure is not None:
        return run_job(dataclasses.replace(job, text=narrowed.widen(job.text)))
    return dataclasses.replace(answer, findings=narrowed.widen_findings(answer.findings))


def _write_pages(folder: str, findings: Sequence[Finding]) -> None:
    """Write the page of each rule (or note) found that has none yet: what `--explain` prints."""
    from tf24migrate.server.pages import page_path, page_text

    for code in {finding.code for finding in findings}:
        path = page_path(folder, code)
        if not os.path.exists(path):
            with contextlib.suppress(OSError):
                with open(path + ".tmp", "w", encoding="utf-8") as handle:
                    handle.write(page_text(code))
                os.replace(path + ".tmp", path)


def _warm_up() -> None:
    """Load what every job needs (LibCST, the engine, the rules, the command's settings) and
    migrate a small text, before the first job: its time limit is not spent on that."""
    from tf24migrate.catalogue.entries import explanation  # noqa: F401 - loading is the point
    from tf24migrate.cli.groups import groups_of  # noqa: F401
    from tf24migrate.engine.loading import import_engine
    from tf24migrate.engine.pipeline import migrate_source
    from tf24migrate.run.migrate_file import migrate_loaded  # noqa: F401

    import_engine()  # not `load_engine`: its code cache made the first diagnostics no sooner
    migrate_source(_WARM_UP)


def _end_with_the_server() -> None:
    """End this worker process as soon as its server is gone (killed, SIGKILL): an idle worker
    sees its connection close, but one at a job would run it to its end first, minutes for a big
    file, for nobody. Checked every `_WATCH` s, in a thread of its own."""
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(_WATCH)
        os._exit(1)

    threading.Thread(target=watch, name="tf24migrate-server-watch", daemon=True).start()


def _send_job(connection: Connection, job: Job) -> None:
    """Send `job`, its text as UTF-8 in a message of its own: pickled, a text beyond Latin-1 kept
    its UTF-8 form (CPython caches it in the string) as long as the server held the document."""
    data = job.data if job.data is not None else job.text.encode("utf-8", "surrogatepass")
    connection.send(dataclasses.replace(job, text="", data=None))
    connection.send_bytes(data)


def _received_job(connection: Connection) -> tuple[Job, Narrowed | None]:
    """The job sent, and for a big text beyond the plane, its stand-in text (`narrowing`), which
    the job then holds instead of the text."""
    job: Job = connection.recv()
    text = connection.recv_bytes().decode("utf-8", "surrogatepass")
    found = narrow(text) if len(text) > BIG_TEXT else None
    if found is None:
        return dataclasses.replace(job, text=text), None
    del text  # the text itself, at 4 bytes a character
    return dataclasses.replace(job, text=found[0]), found[1]


def _parts(outcome: Outcome, narrowed: Narrowed | None = None) -> tuple[Outcome, bytes | bytearray | None]:
    """`outcome` as the worker sends it: without its migrated text, and that text as UTF-8 in a
    message of its own (None: no text), which the server keeps as it came (`Outcome.encoded`);
    widened as it is encoded when the job's text was `narrowed`."""
    if outcome.code is None:
        return outcome, None
    code = outcome.code
    outcome = dataclasses.replace(outcome, code=None, encoded=b"")
    return outcome, code.encode("utf-8", "surrogatepass") if narrowed is None else narrowed.encode(code)


def _received_outcome(connection: Connection) -> Outcome:
    outcome: Outcome = connection.recv()
    if outcome.encoded is None:
        return outcome
    return dataclasses.replace(outcome, encoded=connection.recv_bytes())


def _serve(connection) -> None:
    """The worker process: warm up, then answer each job sent, until the server closes the
    connection; `_STARTED` is sent as each job is taken."""
    os.dup2(2, 1)  # stdout is the server's channel to the editor: nothing may be printed there
    sys.stdout = sys.stderr
    keep_big_blocks_apart()
    _end_with_the_server()
    try:
        _warm_up()
    except Exception as error:  # a broken install: each job will say so; the log, in one line
        sys.stderr.write(
            f"tf24migrate server: error: the worker cannot load the engine ({type(error).__name__}: {error})\n"
        )
    while True:
        try:
            job, narrowed = _received_job(connection)
            connection.send(_STARTED)
        except (EOFError, OSError):
            return
        big = len(job.text) > BIG_TEXT
        try:
            answer = run_job(job) if narrowed is None else _run_narrowed(job, narrowed)
        except Exception as error:  # a bug must cost one document its findings, not the worker
            answer = Outcome(
                failure=f"internal error ({type(error).__name__}: {error}); please report it with the file"
            )
        del job  # its text, before the migrated one is encoded
        if big:  # the engine's stages keep the last text too (20 MB for a 5 MB module with an emoji)
            forget_last_texts()
        answer, data = _parts(answer, narrowed)  # the migrated text dropped once encoded
        del narrowed
        try:
            connection.send(answer)
            if data is not None:
                connection.send_bytes(data)
        except (EOFError, OSError):
            return
        del answer, data
        if big:
            give_back()


class Worker:
    """The worker process, seen from the server: `start` starts it (at `initialize`), `run` sends
    one job and waits for its outcome in a thread of its own, so the event loop never waits; jobs
    run one after the other."""

    def __init__(self) -> None:
        self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tf24migrate-worker")
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._connection: Connection | None = None
        self._closed = False
        self._lock = threading.Lock()

    async def run(self, job: Job) -> Outcome:
        import asyncio

        try:
            return await asyncio.get_running_loop().run_in_executor(self._threads, self._run, job)
        except RuntimeError:  # the server is shutting down: no job runs any more
            return Outcome(failure=SHUTTING_DOWN)

    def start(self) -> None:
        """Start the worker process (if none runs), to warm up before the first job: in the jobs'
        thread, before any job, so that neither the event loop waits for it nor a signal handled
        in the main thread (the server's SIGTERM) stops it half made."""
        with contextlib.suppress(RuntimeError):  # closed: no worker starts any more
            self._threads.submit(self._start_unless_alive)

    def _start_unless_alive(self) -> None:
        if not self._alive() and not self._closed:
            self._start()

    def _alive(self) -> bool:
        return self._process is not None and self._process.is_alive() and self._connection is not None

    def _start(self) -> Connection:
        """A new worker process (under the lock: `stop` from another thread never sees one half
        made); its end of the connection."""
        with self._lock:
            ours, theirs = self._context.Pipe()
            process = self._context.Process(
                target=_serve, args=(theirs,), daemon=True, name="tf24migrate-worker"
            )
            process.start()
            theirs.close()
            self._process, self._connection = process, ours
            return ours

    def _taken(self, connection: Connection) -> bool:
        """Wait, however long its start-up takes, until the worker takes the job sent: False if
        it ended (or the server closes) first."""
        while not connection.poll(0.2):
            if self._closed or self._process is None or not self._process.is_alive():
                return False
        return connection.recv() == _STARTED

    def _run(self, job: Job) -> Outcome:
        failure = SHUTTING_DOWN
        for _ in range(2):  # a worker that ended before taking the job: once more, on a new one
            if self._closed:
                break
            connection = self._connection if self._alive() and self._connection is not None else self._start()
            try:
                _send_job(connection, job)
                if not self._taken(connection):
                    self.stop()
                    failure = (
                        "internal error: the worker process ended before it took the file; please report it"
                    )
                    continue
                if connection.poll(job.settings.timeout):
                    outcome = _received_outcome(connection)
                    if not outcome.unchanged:
                        return outcome
                    if job.data is not None:  # the server's own bytes, not a copy
                        return dataclasses.replace(outcome, encoded=job.data)
                    return dataclasses.replace(outcome, code=job.text)
                failure = (
                    f"not checked: migrating this file took longer than {job.settings.timeout:g} s "
                    "(the `timeout` setting); run `tf24migrate --diff` on it to see its findings"
                )
            except (EOFError, OSError) as error:
                failure = (
                    f"not checked: the worker process ended while migrating this file "
                    f"({_ending(self._process, error)}); run `tf24migrate --diff` on it to see its findings"
                )
            except Exception as error:  # a job that cannot be sent (pickled): never the server's end
                failure = f"internal error ({type(error).__name__}: {error}); please report it with the file"
            self.stop()
            if not self._closed:
                self._start()  # warm for the next change: it does not pay this one's end
            break
        if self._closed:  # whatever failed, the server's end (`shutdown`) is why: no internal error
            failure = SHUTTING_DOWN
        return Outcome(failure=failure)

    def stop(self) -> None:
        """End the worker process (the next job starts another)."""
        with self._lock:
            connection, process = self._connection, self._process
            self._process = self._connection = None
        if connection is not None:
            connection.close()
        if process is not None:
            process.kill()
            process.join(5)

    def close(self) -> None:
        """End the worker process (a job at hand ends with it); no job runs after."""
        self._closed = True
        self.stop()
        self._threads.shutdown(wait=True, cancel_futures=True)
        self.stop()  # one the job at hand may have started meanwhile


def _ending(process: BaseProcess | None, error: BaseException) -> str:
    """How the worker process ended, in words."""
    if process is not None:
        process.join(1)
        code = process.exitcode
        if code is not None and code < 0:
            import signal

            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        if code is not None:
            return f"exit code {code}"
    return str(error) or type(error).__name__
