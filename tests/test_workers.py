"""Worker processes under torture: one writer (the main process), SIGTERM and SIGHUP handled as
Ctrl-C, workers that die with a killed command, a worker that dies mid-run."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from processes import alive, children

from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import Status
from tf24migrate.run import migrate_file, workers
from tf24migrate.run.migrate import migrate_files
from tf24migrate.run.workers import _worker_killed

OLD_CALL = b"strategy.experimental_run_v2(step_fn)"
BEFORE = b"import tensorflow as tf\n" + (b"x = 1\n" * 300) + OLD_CALL + b"\n"
AFTER = BEFORE.replace(OLD_CALL, b"strategy.run(step_fn)")

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def tree(tmp_path, count):
    for n in range(count):
        (tmp_path / f"m{n:03d}.py").write_bytes(BEFORE)
    return sorted(str(p) for p in tmp_path.glob("m*.py"))


def test_workers_never_write_the_main_process_does(tmp_path, monkeypatch):
    files = tree(tmp_path, 12)
    writers = tmp_path / "writers.txt"
    write_source = migrate_file.write_source

    def recorded(*args, **kwargs):
        with open(writers, "a") as handle:
            handle.write(f"{os.getpid()}\n")
        return write_source(*args, **kwargs)

    monkeypatch.setattr(migrate_file, "write_source", recorded)
    results = list(migrate_files(files, Settings(select_rules()), write=True, jobs=2))
    assert all(r.written for r in results)
    assert writers.read_text().split() == [str(os.getpid())] * 12
    assert all(Path(f).read_bytes() == AFTER for f in files)


def _a_worker_dies_on(doomed, monkeypatch):
    """The worker that takes the file `doomed` kills itself (SIGKILL) before migrating it."""
    migrate_file = workers.migrate_file

    def dies_on_one(path, *args, **kwargs):
        if path == doomed:
            os.kill(os.getpid(), signal.SIGKILL)
        return migrate_file(path, *args, **kwargs)

    monkeypatch.setattr(workers, "migrate_file", dies_on_one)


@posix_only
def test_a_worker_that_dies_fails_the_files_it_held_and_the_run_goes_on(tmp_path, monkeypatch):
    files = tree(tmp_path, 40)
    doomed = files[5]
    _a_worker_dies_on(doomed, monkeypatch)
    results = list(migrate_files(files, Settings(select_rules()), write=True, jobs=2))
    assert [r.path for r in results] == files
    by_path = {r.path: r for r in results}
    assert by_path[doomed].status is Status.FAILED
    assert by_path[doomed].error == _worker_killed("SIGKILL")  # said once, of the file it held
    for result in results:  # every other file, in flight or after, ran in new workers
        assert (result.written, result.error, Path(result.path).read_bytes()) == (
            (False, _worker_killed("SIGKILL"), BEFORE) if result.path == doomed else (True, None, AFTER)
        )


def _temporary_folder(tmp_path):
    """The temporary folder of a command run over `tmp_path` (which holds the tree)."""
    return tmp_path.parent / f"{tmp_path.name}-tmp"


def _start_a_long_run(tmp_path):
    tree(tmp_path, 400)
    _temporary_folder(tmp_path).mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "tf24migrate", "--write", "-j", "2", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,  # unbuffered: `readline` must not take lines that `communicate` then never sees
        env={**os.environ, "TMPDIR": str(_temporary_folder(tmp_path))},
    )
    first = process.stdout.readline()  # a first file is reported: the workers are at work
    workers = children(process.pid)
    assert len(workers) >= 2
    return process, workers, first


def _reported_written(stdout: bytes) -> set[str]:
    return {
        line.split(b":")[0].decode().removeprefix("./") for line in stdout.splitlines() if b"[fixed]" in line
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_the_run_as_ctrl_c_does(tmp_path, signum):
    process, workers, first = _start_a_long_run(tmp_path)
    process.send_signal(signum)
    rest, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert b"interrupted before all 400 files were done" in stderr
    changed = {p.name for p in tmp_path.glob("m*.py") if p.read_bytes() == AFTER}
    assert 0 < len(changed) < 400
    assert changed == _reported_written(first + rest)  # every write reported, none more
    assert all(p.read_bytes() in (BEFORE, AFTER) for p in tmp_path.glob("m*.py"))
    deadline = time.monotonic() + 10
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, workers))
    assert not any(_temporary_folder(tmp_path).iterdir())  # the results' folder went with the run


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_command_and_write_nothing_after(tmp_path):
    process, workers, _ = _start_a_long_run(tmp_path)
    process.kill()
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, workers))
    contents = [p.read_bytes() for p in sorted(tmp_path.glob("m*.py"))]
    time.sleep(0.5)
    assert [p.read_bytes() for p in sorted(tmp_path.glob("m*.py"))] == contents
    assert BEFORE in contents
    # A command killed outright cannot remove the folder its workers' results went through: it
    # stays in the temporary folder, with what the workers had sent and it had not read.
    assert all(p.name.startswith("tf24migrate-results-") for p in _temporary_folder(tmp_path).iterdir())


def test_workers_get_the_whole_settings(tmp_path):
    """The rules travel to worker processes as selectors; the target, the unsafe-fix setting and
    the hidden notes travel with them."""
    from tf24migrate.catalogue.selection import RuleSelection
    from tf24migrate.model.target import Target

    files = []
    for n in range(10):
        path = tmp_path / f"m{n}.py"
        path.write_text(
            "import tensorflow as tf\ns.experimental_run_v2(f)\ny = tf.quantization.quantize_and_dequantize(x, -1.0, 1.0)\n"
        )
        files.append(str(path))
    old_target = Settings(RuleSelection("TF241,TF245"), target=Target((2, 1)))
    unsafe = Settings(RuleSelection("TF241,TF245"), unsafe_fixes=True)
    for settings, expected in (
        (old_target, {("TF24101", False), ("TF24505", False)}),  # 2.1 has no `run`
        (unsafe, {("TF24101", True), ("TF24505", True)}),
    ):
        serial = list(migrate_files(files, settings, jobs=1))
        parallel = list(migrate_files(files, settings, jobs=2))
        assert [r.findings for r in parallel] == [r.findings for r in serial]
        assert {(f.code, f.applied) for r in parallel for f in r.findings} == expected


@posix_only
def test_results_come_back_in_messages_a_killed_worker_cannot_leave_half_written(tmp_path, monkeypatch):
    """A worker killed while writing a long message to the pool's shared pipe would leave half of
    it there, and the run would hang (the pool's reader waits for the rest). Every message is at
    most `_SMALL_MESSAGE` bytes (a pipe write that size is whole or nothing): longer results come
    through a file, read once and removed, in a folder removed after the run."""
    files = tree(tmp_path, 40)
    (tmp_path / "big.py").write_bytes(
        b"import tensorflow as tf\nx = '" + b"a" * 100_000 + b"'\n" + OLD_CALL + b"\n"
    )
    files.append(str(tmp_path / "big.py"))
    messages, folders = [], set()
    received = workers._received

    def recorded(message):
        messages.append(message)
        if isinstance(message, str):
            assert os.path.isfile(message)
            folders.add(os.path.dirname(message))
        return received(message)

    monkeypatch.setattr(workers, "_received", recorded)
    results = list(migrate_files(files, Settings(select_rules()), jobs=2))
    assert [r.path for r in results] == files and all(r.changed for r in results)
    assert all(len(m) <= workers._SMALL_MESSAGE for m in messages if isinstance(m, bytes))
    spilled = [m for m in messages if isinstance(m, str)]
    assert spilled and not any(map(os.path.exists, spilled)) and not any(map(os.path.exists, folders))
    assert workers._SMALL_MESSAGE + 256 <= select.PIPE_BUF


@posix_only
def test_a_dead_worker_is_read_after_the_pool_has_reaped_its_workers(tmp_path, monkeypatch):
    """The exit status of each worker is read only once the pool's own thread, which ends and
    reaps the others, has ended. Two waits for one process at once leave one of them without
    its status (ECHILD), and a death read as none blamed the worker that the pool ended with
    SIGTERM, and so another file (1 run in about 30 under load, before this order)."""
    files = tree(tmp_path, 20)
    doomed = files[5]
    deaths = workers._deaths
    reapers_alive = []

    def deaths_after_the_pool(processes, board):
        reapers_alive.append(
            [t.name for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
        )
        return deaths(processes, board)

    _a_worker_dies_on(doomed, monkeypatch)
    monkeypatch.setattr(workers, "_deaths", deaths_after_the_pool)
    results = list(migrate_files(files, Settings(select_rules()), jobs=2))
    assert [r.path for r in results if r.error] == [doomed]
    assert reapers_alive == [[]]


DIES_HOLDING_LOCKS = """
import os, signal, sys
from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.run import workers
from tf24migrate.run.migrate import migrate_files

files = sys.argv[1:]
migrate_file = workers.migrate_file

def dies_holding_locks(path, *args, **kwargs):
    if path == files[5]:  # held by what a later pool shares: as a SIGTERM handler run there would
        stop = workers._worker_stop
        for lock in (getattr(stop, "_cond", None), getattr(stop, "get_lock", lambda: None)()):
            if lock is not None:
                lock.acquire()
        os.kill(os.getpid(), signal.SIGKILL)
    return migrate_file(path, *args, **kwargs)

workers.migrate_file = dies_holding_locks
results = list(migrate_files(files, Settings(select_rules()), jobs=2))
print(sum(r.changed for r in results), [r.path for r in results if r.error][:2] == files[5:6])
"""


@posix_only
def test_a_worker_killed_holding_a_lock_leaves_the_next_workers_free(tmp_path):
    """A worker ends wherever SIGTERM finds it (its handler runs there), and a killed one wherever
    it is: the stop flag, which outlives each pool, is read without a lock, so no worker dies
    holding one that the workers of the next pool would wait on forever (a run hung so, under
    load). The worker here dies holding whatever lock the flag has."""
    files = tree(tmp_path, 20)
    done = subprocess.run(
        [sys.executable, "-c", DIES_HOLDING_LOCKS, *files], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["19", "True"]


LEADING_RUN = """
import sys
from tf24migrate.catalogue.selection import RuleSelection
from tf24migrate.catalogue.settings import Settings
from tf24migrate.run import migrate, workers

forked = []
real = workers.migrate_in_workers
def recorded(files, *args, **kwargs):
    forked.append((len(files), "libcst" in sys.modules))
    return real(files, *args, **kwargs)
workers.migrate_in_workers = recorded
results = list(migrate.migrate_files(sys.argv[1:], Settings(RuleSelection()), jobs=2))
print(len(results), sum(r.changed for r in results), forked, "libcst" in sys.modules)
"""


def test_the_files_no_rule_reads_come_first_and_the_workers_inherit_libcst(tmp_path):
    """In a fresh process: a small tree with nothing to do starts no worker and loads no rule;
    where a file is due, the files before it are migrated here, the rules are loaded here, and the
    workers forked for the rest inherit them rather than each import them."""
    plain = []
    for n in range(20):
        (tmp_path / f"plain{n:02}.py").write_text(f"import os\nx{n} = os.sep\n")
        plain.append(str(tmp_path / f"plain{n:02}.py"))

    def run(files):
        done = subprocess.run([sys.executable, "-c", LEADING_RUN, *files], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run(plain) == "20 0 [] False"
    due = tree(tmp_path, 20)
    assert run(plain[:5] + due) == "25 20 [(20, True)] True"


TAIL_RUN = """
import os, signal, sys
from tf24migrate.catalogue.selection import RuleSelection
from tf24migrate.catalogue.settings import Settings
from tf24migrate.run import migrate, workers

sent = []
real = workers.migrate_in_workers
def recorded(files, settings, jobs, texts, cache, alone):
    sent.append(([os.path.basename(f) for f in files], sorted(os.path.basename(f) for f in alone)))
    return real(files, settings, jobs, texts, cache, alone)
workers.migrate_in_workers = recorded
scans = []
class RecordedScan(workers.TailScan):
    def __init__(self, *args):
        super().__init__(*args)
        scans.append(self)
workers.TailScan = RecordedScan
load_rules = migrate.load_rules
def slow_load(settings):  # the scan reaches this process's files (or dies) before the rules load
    if scans:
        assert scans[-1]._receiving.poll(100), "the scan sent nothing"
    load_rules(settings)
migrate.load_rules = slow_load
workers._TAIL_FILES = int(os.environ.get("TAIL_FILES", workers._TAIL_FILES))
migrate._EARLY_DUE_FILES = int(os.environ.get("EARLY", migrate._EARLY_DUE_FILES))
main = os.getpid()
scanned = workers.result_without_rules
def scan(path, *args, **kwargs):
    if os.getpid() != main and os.path.basename(path) == os.environ.get("DOOMED"):
        os.kill(os.getpid(), signal.SIGKILL)  # the scan dies here
    return scanned(path, *args, **kwargs)
workers.result_without_rules = scan
files, settings = sys.argv[1:], Settings(RuleSelection())
results = list(migrate.migrate_files(files, settings, jobs=2, texts=False))
loaded = "libcst" in sys.modules
alone = list(migrate.migrate_files(files, settings, jobs=1, texts=False))
assert [(r.path, r.status, r.code, r.findings) for r in results] == [
    (r.path, r.status, r.code, r.findings) for r in alone
]
print([os.path.basename(r.path) for r in results if r.changed], sent, loaded)
"""


def _tail_run(files, doomed="", tail_files=2048, early=16):
    done = subprocess.run(
        [sys.executable, "-c", TAIL_RUN, *files],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DOOMED": doomed, "TAIL_FILES": str(tail_files), "EARLY": str(early)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _plain(tmp_path, name, size=0):
    path = tmp_path / f"{name}.py"
    path.write_text("import os\nx = os.sep\n" + "# a line no rule reads\n" * (size // 24))
    return str(path)


def _due(tmp_path, name):
    path = tmp_path / f"{name}.py"
    path.write_bytes(BEFORE)
    return str(path)


def _forty(tmp_path):
    """Forty files, ten of them due (the first is `d05`): their paths, and the due files' names."""
    due_at = {5, 9, 14, 22, 23, 30, 31, 35, 38, 39}
    files = [_due(tmp_path, f"d{n:02}") if n in due_at else _plain(tmp_path, f"p{n:02}") for n in range(40)]
    return files, [f"d{n:02}.py" for n in sorted(due_at)]


@pytest.mark.parametrize("early", [16, 2])
def test_while_the_rules_load_the_last_files_are_scanned_and_the_workers_get_the_due_ones(tmp_path, early):
    """The first due file (`d05`) makes this process load the rules; meanwhile a process scans the
    files from the last one back to it, so the workers are sent only the due files, each alone,
    the first `early` of those it found before the others; the results are those of one process,
    in order."""
    files, names = _forty(tmp_path)
    found = names[1:]
    sent = [*found[:early], "d05.py", *found[early:]]
    assert _tail_run(files, early=early) == f"{names} [({sent}, {names})] True"


def test_a_scan_that_dies_leaves_its_files_to_the_workers(tmp_path):
    files, names = _forty(tmp_path)
    rest = [os.path.basename(path) for path in files[5:]]
    assert _tail_run(files, doomed="p20.py") == f"{names} [({rest}, ['d05.py'])] True"


def test_the_scan_reads_a_bounded_number_of_files(tmp_path):
    """Its results wait for the files before it: the scan stops after `_TAIL_FILES` (here 5), and
    the workers are sent the files before those, and the due ones among those."""
    files, names = _forty(tmp_path)
    rest = ["d35.py", "d38.py", "d39.py"] + [os.path.basename(path) for path in files[5:35]]
    alone = ["d05.py", "d35.py", "d38.py", "d39.py"]
    assert _tail_run(files, tail_files=5) == f"{names} [({rest}, {alone})] True"


def test_past_the_leading_bytes_two_scans_meet_and_nothing_is_loaded(tmp_path):
    """With two jobs, 2.4 MB of files no rule reads: this process reads the first megabyte alone,
    then the scan from the end and this process meet; no worker starts, no rule is loaded."""
    files = [_plain(tmp_path, f"p{n:02}", size=30_000) for n in range(80)]
    assert _tail_run(files) == "[] [] False"


def test_a_file_known_to_be_due_goes_to_a_worker_alone(tmp_path, monkeypatch):
    files = tree(tmp_path, 60)
    chunks = tmp_path / "chunks.txt"
    sent = workers._sent

    def recorded(results):  # in the worker, as it sends a chunk's results
        with open(chunks, "a") as handle:
            handle.write(f"{files.index(results[0].path)} {len(results)}\n")
        return sent(results)

    monkeypatch.setattr(workers, "_sent", recorded)
    alone = frozenset(files[n] for n in (5, 6, 20))
    results = list(workers.migrate_in_workers(files, Settings(select_rules()), 2, False, alone=alone))
    assert [r.path for r in results] == files
    chunked = sorted(tuple(map(int, line.split())) for line in chunks.read_text().splitlines())
    chunk_of_three = [(n, 3) for n in range(21, 60, 3)]
    assert chunked == [
        (0, 3),
        (3, 2),
        (5, 1),
        (6, 1),
        (7, 3),
        (10, 3),
        (13, 3),
        (16, 3),
        (19, 1),
        (20, 1),
        *chunk_of_three,
    ]
