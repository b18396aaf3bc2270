"""The real TensorFlow releases the integration tests run programs on, each in a virtual environment
of its own made from a Python 3.8 (the newest Python those releases have wheels for).

    python scripts/runtimes.py           # make the missing environments, print where each is
    python scripts/runtimes.py --list    # print where each is, make nothing

The environments live in `$TF24MIGRATE_RUNTIMES`, by default `${XDG_CACHE_HOME:-~/.cache}/
tf24migrate/runtimes/tf-X.Y.Z`, outside the repository, and are kept between runs: one is made
once, and used while it holds the marker written after its TensorFlow imported. The interpreter is
found through `pyenv root` (`versions/3.8.*/bin/python`; `$PYENV_ROOT` or `~/.pyenv` when pyenv is
not on PATH), then `python3.8` on PATH. Where there is
none, nothing is made, the tests that need it skip with the reason, and this exits 0: CI runs the
rest. Standard library only.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

PYTHON = "3.8"
# release -> what pip installs beside it (2.3 and 2.4 need a protobuf older than 4)
RELEASES = {
    "2.3.0": ("tensorflow-cpu==2.3.0", "protobuf==3.20.3"),
    "2.4.0": ("tensorflow-cpu==2.4.0", "protobuf==3.20.3"),
}
MARKER = "tf24migrate-runtime.json"
HOW_TO_GET_PYTHON = (
    f"no Python {PYTHON} found through `pyenv root` (versions/{PYTHON}.*/bin/python) or as "
    f"python{PYTHON} on PATH: install one (`pyenv install {PYTHON}`), then run "
    "`python scripts/runtimes.py`"
)


def cache_root() -> Path:
    """Where the environments are: `$TF24MIGRATE_RUNTIMES`, else the user's cache folder."""
    if os.environ.get("TF24MIGRATE_RUNTIMES"):
        return Path(os.environ["TF24MIGRATE_RUNTIMES"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tf24migrate" / "runtimes"


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


def make(release: str, interpreter: Path) -> Path:
    """Make (or complete) the environment of `release`; returns its interpreter."""
    folder = environment(release)
    python = folder / "bin" / "python"
    if not python.exists():
        print(f"runtimes: making {folder} with {interpreter}", flush=True)
        subprocess.run([str(interpreter), "-m", "venv", str(folder)], check=True)
    if not _imports_release(python, release):
        print(f"runtimes: installing {' '.join(RELEASES[release])} into {folder}", flush=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, *RELEASES[release]], check=True)
        if not _imports_release(python, release):
            raise SystemExit(f"runtimes: error: TensorFlow {release} does not import in {folder}")
    (folder / MARKER).write_text(json.dumps({"release": release, "requirements": RELEASES[release]}) + "\n")
    return python


def main(argv: list[str]) -> int:
    listing = "--list" in argv
    interpreter = find_interpreter()
    for release in RELEASES:
        python = runtime_python(release)
        if python is None and not listing:
            if interpreter is None:
                print(f"runtimes: TensorFlow {release} skipped: {HOW_TO_GET_PYTHON}")
                continue
            python = make(release, interpreter)
        print(f"runtimes: TensorFlow {release}: {python or 'not made'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
