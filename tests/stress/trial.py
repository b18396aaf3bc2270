"""The machinery of the torture cases: running the installed command and the library in fresh
processes with timeouts, and judging what they did (the outcomes are defined in `test_torture.py`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hostile_inputs import migrated
from processes import children  # noqa: F401 - tests/processes.py, for the cases

EXIT_CODES = {0, 1, 2, 130}
TIMEOUT = 120
KINDS = ("hang", "crash", "bytes lost", "unclear message", "other failure")
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
CACHE = ".tf24migrate_cache"
TEMPORARY_PREFIX = ".tf24migrate-"

LIBRARY_RUNNER = r"""
import json, sys
from tf24migrate import TF24MigrateError, migrate_source
kind, data = sys.argv[1], sys.stdin.buffer.read()
source = {
    "none": lambda: None, "bytes": lambda: data, "bytearray": lambda: bytearray(data),
    "list": lambda: data.decode().splitlines(True), "int": lambda: 3,
}.get(kind, lambda: data.decode(kind[4:], "surrogatepass"))()
kwargs = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
try:
    result = migrate_source(source, **kwargs)
except (TypeError, TF24MigrateError) as error:
    print(json.dumps({"error": type(error).__name__, "message": str(error)}))
else:
    print(json.dumps({"code": result.code, "changed": result.changed}))
"""

MEASURED_RUNNER = r"""
import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as handle:
    handle.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)
"""


@dataclass
class Run:
    args: list
    returncode: int | None
    stdout: bytes
    stderr: bytes
    seconds: float

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")


class Problem(Exception):
    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


class Skip(Exception):
    pass


class Trial:
    """One case: its folder, the runs it made and the problems they showed."""

    def __init__(self, folder: Path, options: argparse.Namespace):
        self.dir = folder
        self.options = options
        self.problems: list[Problem] = []
        self.notes: list[str] = []

    # -- recording -----------------------------------------------------------------------------
    def fail(self, kind: str, detail: str) -> None:
        self.problems.append(Problem(kind, detail))

    def outcome(self) -> tuple[str, str]:
        for kind in KINDS:
            found = [p.detail for p in self.problems if p.kind == kind]
            if found:
                return kind, found[0]
        return "ok", "; ".join(self.notes)

    # -- building ------------------------------------------------------------------------------
    def write(self, relative: str | bytes, data: bytes | str) -> Path:
        path = Path(os.fsdecode(os.path.join(os.fsencode(self.dir), os.fsencode(relative))))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path

    def snapshot(self, root: Path | None = None) -> dict[str, bytes]:
        """Every regular file under the case folder (links not followed), by relative path."""
        root = root or self.dir
        found = {}
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != CACHE]
            for name in names:
                path = os.path.join(folder, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    try:
                        with open(path, "rb") as handle:
                            found[os.path.relpath(path, root)] = handle.read()
                    except OSError:
                        found[os.path.relpath(path, root)] = b"<unreadable>"
        return found

    # -- running -------------------------------------------------------------------------------
    def popen(self, args, cwd=None, preexec=None, **kwargs) -> subprocess.Popen:
        return subprocess.Popen(
            [self.options.tool, *args],
            cwd=cwd or self.dir,
            stdin=kwargs.pop("stdin", subprocess.PIPE),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=preexec,
            **kwargs,
        )

    def finish(self, process, args, start, stdin=b"", timeout=TIMEOUT, internal_ok=False) -> Run:
        try:
            stdout, stderr = process.communicate(stdin, timeout=timeout)
            code = process.returncode
        except subprocess.TimeoutExpired:
            _kill_group(process)
            stdout, stderr = process.communicate()
            self.fail("hang", f"{' '.join(map(str, args))!r} still running after {timeout} s")
            code = None
        run = Run(list(args), code, stdout, stderr, time.monotonic() - start)
        if code is not None:
            self._judge_crash(run, internal_ok)
        self._judge_control(run)
        return run

    def run(self, *args, cwd=None, stdin=b"", timeout=TIMEOUT, preexec=None, internal_ok=False) -> Run:
        start = time.monotonic()
        process = self.popen(args, cwd=cwd, preexec=preexec)
        return self.finish(process, args, start, stdin, timeout, internal_ok)

    def library(self, kind: str, data: bytes = b"", **kwargs) -> dict:
        command = [sys.executable, "-c", LIBRARY_RUNNER, kind, json.dumps(kwargs)]
        try:
            done = subprocess.run(command, input=data, capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.fail("hang", f"migrate_source ({kind}) still running after {TIMEOUT} s")
            return {}
        run = Run(["migrate_source", kind], done.returncode, done.stdout, done.stderr, 0)
        self._judge_crash(run, internal_ok=False)
        return json.loads(done.stdout) if done.returncode == 0 and done.stdout else {}

    def _judge_crash(self, run: Run, internal_ok: bool) -> None:
        said = " ".join(map(str, run.args))[:80]
        if run.returncode < 0:
            self.fail("crash", f"{said!r} killed by {signal.Signals(-run.returncode).name}")
        elif run.returncode not in EXIT_CODES:
            self.fail("crash", f"{said!r} exited {run.returncode}")
        if b"Traceback (most recent call last)" in run.stderr:
            last = run.err.strip().splitlines()[-1][:160]
            self.fail("crash", f"{said!r}: traceback: {last}")
        if not internal_ok and re.search(rb"internal error|Please report", run.stderr):
            line = next(x for x in run.err.splitlines() if "internal error" in x or "Please report" in x)
            self.fail("crash", f"{said!r}: {line[:160]}")

    def _judge_control(self, run: Run) -> None:
        streams = [("stderr", run.stderr)]
        if "-" not in run.args and ("--write" in run.args or "--check" in run.args):
            streams.append(("stdout", run.stdout))
        for name, data in streams:
            found = CONTROL.search(data)
            if found:
                self.fail("unclear message", f"raw control character {found.group()!r} on {name}")

    # -- judging -------------------------------------------------------------------------------
    def code(self, run: Run, *expected: int) -> None:
        if run.returncode is not None and run.returncode not in expected:
            tail = run.err.strip().splitlines()[-1:] or [""]
            self.fail("other failure", f"exit {run.returncode}, expected {expected}: {tail[0][:160]}")

    def message(self, run: Run, names=(), says=(), not_says=()) -> None:
        """A clear message: a line naming each of `names` with an explanation after it, on stderr,
        or on stdout as a finding (a file that fails is reported as ruff reports one: `path:1:1:
        TF24005 error why`)."""
        said = run.err + run.out
        lines = said.splitlines()
        for name in names:
            if not any(name in line and len(line.split(name, 1)[1].split()) >= 3 for line in lines):
                self.fail("unclear message", f"no line names {name!r} and says why: {said[:200]!r}")
        for phrase in says:
            if phrase not in said:
                self.fail("unclear message", f"the output lacks {phrase!r}: {said[:200]!r}")
        for phrase in not_says:
            if phrase in said:
                self.fail("unclear message", f"the output says {phrase!r}: {said[:200]!r}")

    def files(self, before: dict[str, bytes], expected: dict[str, bytes], run: Run | None = None) -> None:
        """Each file ends as its expected migration, or unchanged and named in the output (on stderr,
        or on stdout as a finding: `path:1:1: TF24005 error why`); no other changes."""
        after = self.snapshot()
        for name, old in before.items():
            new = after.get(name)
            want = expected.get(name, old)
            if new is None:
                if not os.path.basename(name).startswith(TEMPORARY_PREFIX):  # a killed run's leftover
                    self.fail("bytes lost", f"{name} vanished")
            elif new not in (old, want):
                self.fail("bytes lost", f"{name}: {_first_difference(want, new)}")
            elif new == old != want and run is not None and _shown(name) not in run.err + run.out:
                self.fail("other failure", f"{name} was due but left unchanged without a message")
        for name in after.keys() - before.keys():
            if os.path.basename(name).startswith(TEMPORARY_PREFIX):
                self.fail("other failure", f"temporary file {name} left behind")


def _shown(name: str) -> str:
    """The part of a file name that any escaping prints as it is (its last plain run)."""
    plain = re.findall(r"[\w.]+", os.path.basename(name))
    return plain[-1] if plain else name


def _first_difference(want: bytes, got: bytes) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), min(len(want), len(got))
    )
    return f"differs at byte {at} of {len(want)}: expected {want[at : at + 24]!r}, got {got[at : at + 24]!r}"


def _kill_group(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def measured(trial: Trial, args, cwd, timeout) -> tuple[Run, int]:
    """Run the command under a wrapper that reports its peak resident memory (KiB)."""
    report = trial.dir / "maxrss.txt"
    command = [sys.executable, "-c", MEASURED_RUNNER, str(report), trial.options.tool, *args]
    start = time.monotonic()
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    run = trial.finish(process, args, start, None, timeout)
    return run, int(report.read_text()) if report.exists() else 0


def remove(path: Path) -> None:
    for folder, dirs, _ in os.walk(path):  # make read-only and unsearchable folders removable
        for name in dirs:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o755)
    shutil.rmtree(path, ignore_errors=True)


def check_write(
    t: Trial, files: dict, args=("--write", "."), codes=(0,), expected=None, preexec=None, **message
) -> Run:
    """Write `files`, run the command, judge the exit code, the files and (on a failure) the message."""
    for name, data in files.items():
        t.write(name, data)
    before = t.snapshot()
    run = t.run(*args, preexec=preexec)
    t.code(run, *codes)
    t.files(before, {n: migrated(d) for n, d in before.items()} if expected is None else expected, run)
    if run.returncode == 2 or message:
        t.message(run, **message)
    return run


def check_stdin(t: Trial, data: bytes, codes=(0, 2), args=("-",), **message) -> None:
    """Stdin mode prints the migration on success and the input unchanged on a failure."""
    run = t.run(*args, stdin=data)
    t.code(run, *codes)
    if run.returncode == 0 and run.stdout != migrated(data):
        t.fail("bytes lost", f"stdout is not the migrated input: {run.stdout[:60]!r}")
    if run.returncode == 2:
        if run.stdout != data:
            t.fail("bytes lost", f"a failure did not echo the input: {run.stdout[:60]!r}")
        named = args[args.index("--stdin-filename") + 1] if "--stdin-filename" in args else "<stdin>"
        t.message(run, names=(named,), **message)


def check_library(t: Trial, data: bytes, encoding="utf-8", allowed_errors=("SourceSyntaxError",)) -> None:
    result = t.library(f"str:{encoding}", data)
    if "code" in result:
        want = migrated(data).decode(encoding, "surrogatepass")
        if result["code"] != want:
            t.fail("bytes lost", f"library code differs: {result['code'][-40:]!r} vs {want[-40:]!r}")
    elif result and result.get("error") not in allowed_errors:
        t.fail("other failure", f"library raised {result.get('error')}: {result.get('message', '')[:120]}")


def _as_user(uid: int):
    def drop():
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)

    return drop


def as_nobody(case):
    """Run `case` with the command as user `nobody` (as root only: root reads any file)."""

    def wrapped(t):
        if os.geteuid() != 0:
            raise Skip("needs root to switch to user nobody")
        drop = _as_user(65534)
        try:
            subprocess.run([t.options.tool, "--version"], preexec_fn=drop, capture_output=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            raise Skip(
                "user nobody cannot run the installed tool (its environment is not readable)"
            ) from None
        t.dir.chmod(0o777)
        t.dir.parent.chmod(0o755)  # the run's own temporary folder
        if any(p.stat().st_mode & 0o005 != 0o005 for p in t.dir.parent.parents):
            raise Skip("user nobody cannot reach the case folder (use a --keep folder others can read)")
        run = t.run

        def as_user(*args, **kwargs):
            return run(*args, preexec=drop, **kwargs)

        t.run = as_user
        case(t)

    return wrapped


def installed_tool() -> str | None:
    """The `tf24migrate` command installed beside this Python (else the one on PATH), or None."""
    beside = Path(sys.executable).parent / "tf24migrate"
    return str(beside) if beside.exists() else shutil.which("tf24migrate")
