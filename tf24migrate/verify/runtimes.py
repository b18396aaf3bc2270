"""The real TensorFlow releases `verify` (and the integration tests) run code on, each in a virtual
environment of its own made from a Python 3.8 (the newest Python those releases have wheels for).

The environments live in `$TF24MIGRATE_RUNTIMES`, by default `${XDG_CACHE_HOME:-~/.cache}/
tf24migrate/runtimes/tf-X.Y.Z`, and are kept between runs: one is made once (about 1 GB), and used
while it holds the marker written after its TensorFlow imported. The interpreter is found through
`pyenv root` (`versions/3.8.*/bin/python`; `$PYENV_ROOT` or `~/.pyenv` when pyenv is not on PATH),
then `python3.8` on PATH. Standard library only: `scripts/runtimes.py` calls it before the package
is installed.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

PYTHON = "3.8"
# release -> what pip installs beside it (2.3 and 2.4 need a protobuf older than 4)
RELEASES = {
    "2.3.0": ("tensorflow-cpu==2.3.0", "protobuf==3.20.3"),
    "2.4.0": ("tensorflow-cpu==2.4.0", "protobuf==3.20.3"),
}
BEFORE, AFTER = "2.3.0", "2.4.0"
MARKER = "tf24migrate-runtime.json"


class RuntimeUnavailable(Exception):
    """A release's environment cannot be made: the message says why and what to do, in one line."""


def how_to_get_python(then: str) -> str:
    """Why no environment can be made here, and what to do (`then`: the command to run after)."""
    return (
        f"no Python {PYTHON} found through `pyenv root` (versions/{PYTHON}.*/bin/python) or as "
        f"python{PYTHON} on PATH: install one (`pyenv install {PYTHON}`), then run `{then}`"
    )


def cache_root() -> Path:
    """Where the environments are: `$TF24MIGRATE_RUNTIMES`, else the user's cache folder."""
    if os.environ.get("TF24MIGRATE_RUNTIMES"):
        return Path(os.environ["TF24MIGRATE_RUNTIMES"])
    return user_cache() / "runtimes"


def user_cache() -> Path:
    """`${XDG_CACHE_HOME:-~/.cache}/tf24migrate`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tf24migrate"


def _version_key(path: str) -> tuple[int, ...]:
    version = Path(path).parents[1].name
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def find_interpreter(version: str = PYTHON) -> Path | None:
    """The newest `version.*` interpreter pyenv has, else `pythonX.Y` on PATH, else None."""
    try:
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):  # pyenv not on PATH: its variable, or its default
        root = os.environ.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    candidates = sorted(
        glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", "python")), key=_version_key
    )
    if root and candidates:
        return Path(candidates[-1])
    on_path = shutil.which(f"python{version}")
    return Path(on_path) if on_path else None


def environment(release: str) -> Path:
    return cache_root() / f"tf-{release}"


def runtime_python(release: str) -> Path | None:
    """The interpreter of a complete environment for `release`, or None."""
    python = environment(release) / "bin" / "python"
    return python if (environment(release) / MARKER).is_file() and python.exists() else None


def _imports_release(python: Path, release: str) -> bool:
    check = "import tensorflow as tf; print(tf.__version__)"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    result = subprocess.run([str(python), "-c", check], capture_output=True, text=True, env=env)
    return result.returncode == 0 and result.stdout.strip() == release


# Hears how many seconds a long step (an install) has taken so far, about once a second.
Progress = Callable[[float], None]


def run_step(command: list[str], progress: Progress | None = None, cwd: str | None = None) -> tuple[int, str]:
    """Run `command`, its output (stdout and stderr) kept; `progress` hears the time it takes.
    Returns its exit status and output."""
    started = time.monotonic()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd
    ) as process:
        while True:
            try:
                output, _ = process.communicate(timeout=1)
                return process.returncode, output
            except subprocess.TimeoutExpired:  # nothing of the output is lost by asking again
                if progress is not None:
                    progress(time.monotonic() - started)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (made if missing), waited for as long as it takes (another
    run making the same environment); Ctrl-C stops the wait."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on Linux or macOS
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def make(
    release: str, interpreter: Path, say: Callable[[str], None] = print, progress: Progress | None = None
) -> Path:
    """Make (or complete) the environment of `release`, one run at a time; returns its
    interpreter. `say` hears each step as it starts, `progress` how long it has taken. Raises
    `RuntimeUnavailable` when TensorFlow does not install or import."""
    with locked(environment(release).with_suffix(".lock")):
        return runtime_python(release) or _make(release, interpreter, say, progress)


def _make(release: str, interpreter: Path, say: Callable[[str], None], progress: Progress | None) -> Path:
    folder = environment(release)
    python = folder / "bin" / "python"
    if not python.exists():
        say(f"making {folder} with {interpreter}")
        _checked([str(interpreter), "-m", "venv", str(folder)], f"cannot make {folder}", progress)
    if not _imports_release(python, release):
        say(f"installing {' '.join(RELEASES[release])} into {folder} (about 1 GB, once)")
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        _checked([*pip, *RELEASES[release]], f"TensorFlow {release} does not install in {folder}", progress)
        if not _imports_release(python, release):
            raise RuntimeUnavailable(f"TensorFlow {release} does not import in {folder}")
    (folder / MARKER).write_text(json.dumps({"release": release, "requirements": RELEASES[release]}) + "\n")
    return python


def _checked(command: list[str], what: str, progress: Progress | None) -> None:
    """Run `command`; a failure raises `RuntimeUnavailable` with `what` and its last error line."""
    status, output = run_step(command, progress)
    if status != 0:
        raise RuntimeUnavailable(f"{what}: {last_error_line(output)}")


def last_error_line(output: str) -> str:
    """The line of a tool's output that says what failed: pip's last `ERROR:` line, else the last
    line that is not blank."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR:")]
    return (errors or lines or ["(no output)"])[-1].removeprefix("ERROR: ")


def ensure(release: str, say: Callable[[str], None], then: str, progress: Progress | None = None) -> Path:
    """The interpreter of `release`'s environment, made first if it is missing. Raises
    `RuntimeUnavailable` (saying how to get a Python 3.8, and to run `then` after) when none can be."""
    python = runtime_python(release)
    if python is not None:
        return python
    interpreter = find_interpreter()
    if interpreter is None:
        raise RuntimeUnavailable(f"TensorFlow {release} is not installed: {how_to_get_python(then)}")
    return make(release, interpreter, say, progress)
