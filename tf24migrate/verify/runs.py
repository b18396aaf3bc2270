"""Running the project's check in both copies side by side, each on its interpreter, and reading what
each check says: pytest's JUnit XML per test when the check is pytest, the modules one by one in
import mode, else the command as one check.

Each run is a process group of its own in a new session, its standard input the null device and
its output kept in the scratch folder; `--timeout` ends a run's whole group. When `verify` is
stopped (Ctrl-C, SIGTERM), both groups are ended before the scratch folder is removed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# Run by the release's interpreter (Python 3.8) in import mode: imports each module named, from
# its folder, as `python -c "import pkg.mod"` would there; writes each one's outcome as JSON.
IMPORT_SCRIPT = """\
import json, sys, traceback
modules, out = json.loads(sys.argv[1]), sys.argv[2]
results = {}
for name, folder in modules:
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        __import__(name)
        results[name] = {"passed": True}
    except Exception as error:
        results[name] = {
            "passed": False,
            "error": traceback.format_exception_only(type(error), error)[-1].strip(),
            "frames": [[f.filename, f.lineno] for f in traceback.extract_tb(error.__traceback__)],
        }
        traceback.print_exc()
with open(out, "w") as handle:
    json.dump(results, handle)
sys.exit(0 if all(result["passed"] for result in results.values()) else 1)
"""
_GRACE = 2.0  # seconds between SIGTERM and SIGKILL for a run being ended
_FILE_LINE = re.compile(
    r'^\s*(?:File "(?P<quoted>[^"]+)", line (?P<qline>\d+)|(?P<file>[^\s:"]+\.py):(?P<line>\d+):)'
)


@dataclass(frozen=True)
class Frame:
    """A traceback frame in one of the project's files (its path relative to the project)."""

    file: str
    line: int


@dataclass(frozen=True)
class Check:
    """One check's outcome: `passed` None when skipped; `frames` outermost first."""

    name: str
    passed: bool | None
    error: str = ""
    frames: tuple[Frame, ...] = ()


@dataclass
class Outcome:
    """How the check ran in one copy."""

    returncode: int | None  # None: ended by the timeout
    duration: float
    output: str
    checks: dict[str, Check] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.returncode == 0


@dataclass(frozen=True)
class Side:
    """One of the two runs: which copy, on which interpreter."""

    name: str  # "before" or "after"
    release: str
    python: Path
    root: Path  # the copy of the project


def is_pytest(command: Sequence[str]) -> bool:
    """Whether `command` runs pytest: `pytest ...`, `py.test ...`, `python -m pytest ...`."""
    if not command:
        return False
    program = os.path.basename(command[0])
    if program in ("pytest", "py.test"):
        return True
    return program.startswith("python") and list(command[1:3]) == ["-m", "pytest"]


def import_modules(root: Path, paths: Sequence[str]) -> list[tuple[str, str]]:
    """`(module, folder)` for each Python file of `paths` (relative to `root`): the folder is the
    first above the file's package (the folder without `__init__.py`), put on `sys.path` first."""
    modules = []
    for path in sorted(paths):
        if not path.endswith(".py"):
            continue
        parts = Path(path).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        package = len(Path(path).parts) - 1  # the folders above the file inside the package
        while package > 0 and (root.joinpath(*Path(path).parts[:package]) / "__init__.py").is_file():
            package -= 1
        if not parts[package:]:
            continue
        modules.append((".".join(parts[package:]), str(root.joinpath(*Path(path).parts[:package]))))
    return modules


def _environment(side: Side, shims: Path) -> dict[str, str]:
    """The run's environment: the side's interpreter first on PATH (as `python` and `python3`,
    beside its own scripts: `pytest`), its virtual environment active, the copy's root (and its
    `src/`) first on PYTHONPATH, as if the project were installed for development."""
    shims.mkdir(parents=True, exist_ok=True)
    for name in ("python", "python3"):  # scripts, not links: a link would hide its virtual environment
        shim = shims / name
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(str(side.python))} "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__")
    }
    env["PATH"] = os.pathsep.join([str(shims), str(side.python.parent), env.get("PATH", os.defpath)])
    if (side.python.parent.parent / "pyvenv.cfg").is_file():
        env["VIRTUAL_ENV"] = str(side.python.parent.parent)
    roots = [str(side.root), *([str(side.root / "src")] if (side.root / "src").is_dir() else [])]
    env["PYTHONPATH"] = os.pathsep.join([*roots, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    return env


class CheckNotStarted(Exception):
    """CMD cannot be started (not found, not executable): the message says so in one line."""


def _start(side: Side, command: Sequence[str], logs: Path) -> tuple[subprocess.Popen, float]:
    env = _environment(side, logs / f"{side.name}-bin")
    with open(logs / f"{side.name}.out", "wb") as output:
        try:
            process = subprocess.Popen(
                list(command),
                cwd=side.root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as error:
            raise CheckNotStarted(
                f"{command[0]}: cannot be started on TensorFlow {side.release} ({error.strerror or error}): "
                f"name a program on PATH or in {side.python.parent}"
            ) from None
    return process, time.monotonic()


def _end(process: subprocess.Popen) -> None:
    """End `process` and everything it started: SIGTERM to its group, SIGKILL after a grace."""
    for number in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, number)
        try:
            process.wait(timeout=_GRACE)
        except subprocess.TimeoutExpired:
            continue
        if number == signal.SIGTERM:
            with contextlib.suppress(ProcessLookupError, PermissionError):  # the leader is gone: the rest too
                os.killpg(process.pid, signal.SIGKILL)
        return


class Runs:
    """The two runs: each started as soon as its copy is ready (the run before the migration
    while the other copy is migrated), then waited for together, each ended once past the
    timeout. Leaving the block by an exception (Ctrl-C too) ends every run started."""

    _POLL = 0.02  # seconds between looks at the runs: how late an end is seen, at most

    def __init__(self, logs: Path, timeout: float | None) -> None:
        self.logs, self.timeout = logs, timeout
        self.started: list[tuple[Side, subprocess.Popen, float]] = []

    def __enter__(self) -> Runs:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is not None:
            for _side, process, _start_time in self.started:
                _end(process)

    def start(self, side: Side, command: Sequence[str]) -> None:
        self.started.append((side, *_start(side, command, self.logs)))

    def wait(self) -> list[Outcome]:
        """Each run's outcome, in the order they were started, its time from its start to its end."""
        ended: dict[int, tuple[int | None, float]] = {}
        while len(ended) < len(self.started):
            for index, (_side, process, start) in enumerate(self.started):
                if index in ended:
                    continue
                returncode = process.poll()
                if returncode is not None:
                    ended[index] = (returncode, time.monotonic() - start)
                elif self.timeout is not None and time.monotonic() - start > self.timeout:
                    _end(process)
                    ended[index] = (None, self.timeout)
            if len(ended) < len(self.started):
                time.sleep(self._POLL)
        return [
            Outcome(*ended[index], (self.logs / f"{side.name}.out").read_bytes().decode("utf-8", "replace"))
            for index, (side, _process, _start_time) in enumerate(self.started)
        ]


def _project_frames(frames: Sequence[tuple[str, int]], root: Path, cwd: Path) -> tuple[Frame, ...]:
    """The frames in the project's files, their paths relative to the copy's root."""
    found = []
    for file, line in frames:
        path = Path(file) if os.path.isabs(file) else cwd / file
        try:
            relative = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
        except ValueError:
            continue
        if not relative.startswith(os.pardir) and (root / relative).is_file():
            found.append(Frame(Path(relative).as_posix(), line))
    return tuple(found)


def frames_in_text(text: str, root: Path) -> tuple[Frame, ...]:
    """The project's frames in a traceback as Python prints it (`File "f.py", line 3`) or as
    pytest does (`f.py:3: in test` / `f.py:3: AttributeError`), outermost first."""
    frames = []
    for line in text.splitlines():
        match = _FILE_LINE.match(line)
        if match:
            file = match["quoted"] or match["file"]
            frames.append((file, int(match["qline"] or match["line"])))
    return _project_frames(frames, root, root)


def last_traceback(output: str) -> tuple[str, str]:
    """The last traceback of `output` and the line that ends it (the error), or ("", "")."""
    start = output.rfind("Traceback (most recent call last):")
    if start < 0:
        return "", ""
    text = output[start:]
    lines = [line for line in text.splitlines() if line.strip()]
    error = next((line for line in lines[1:] if not line.startswith((" ", "\t"))), lines[-1])
    return text, error.strip()


def junit_checks(path: Path, root: Path) -> dict[str, Check]:
    """The tests of pytest's JUnit XML at `path`, by `classname::name`; {} when it is missing."""
    try:
        tree = ElementTree.parse(path)
    except (OSError, ElementTree.ParseError):
        return {}
    checks = {}
    for case in tree.iter("testcase"):
        name = "::".join(part for part in (case.get("classname", ""), case.get("name", "")) if part)
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        if failure is not None:
            message = (failure.get("message") or "").strip()
            error = message.splitlines()[0] if message else failure.tag
            checks[name] = Check(name, False, error, frames_in_text(failure.text or "", root))
        else:
            checks[name] = Check(name, None if case.find("skipped") is not None else True)
    return checks


def import_checks(path: Path, root: Path) -> dict[str, Check]:
    """The modules of the import script's JSON at `path`; {} when it is missing."""
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {
        name: Check(
            name,
            bool(result["passed"]),
            result.get("error", ""),
            _project_frames([(f, int(line)) for f, line in result.get("frames", [])], root, root),
        )
        for name, result in results.items()
    }


def command_check(name: str, outcome: Outcome, root: Path, timeout: float | None) -> Check:
    """The whole command as one check: passed when it exits 0; else its last traceback's frames."""
    if outcome.returncode is None:
        return Check(name, False, f"timed out after {timeout:g} s")
    if outcome.passed:
        return Check(name, True)
    text, error = last_traceback(outcome.output)
    return Check(name, False, error or f"exit {outcome.returncode}", frames_in_text(text, root))
