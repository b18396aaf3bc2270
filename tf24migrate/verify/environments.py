"""The interpreters a project's check runs on: a release's runtime (`verify.runtimes`) with the
project's own dependencies beside it, TensorFlow pinned to the release.

TensorFlow is not installed again for each project: a project's environment is a virtual
environment without pip of its own, whose `site-packages` sees the runtime's through a `.pth`
file (after its own, so that a dependency the project pins wins); pip, run in it, installs only
what the runtime lacks. The requirements are those the project's metadata declares
(`run.project_metadata.requirements_in`: requirements files, `pyproject.toml`, `setup.cfg`,
`setup.py`), TensorFlow's own left out, with pytest when the check is pytest; a constraints file
keeps TensorFlow at the release whatever a dependency asks. Environments live in
`$TF24MIGRATE_ENVIRONMENTS`, by default `${XDG_CACHE_HOME:-~/.cache}/tf24migrate/environments`,
one per release and set of requirements, made once and used while they hold their marker.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from tf24migrate.run.project_metadata import (
    for_the_code,
    project_folder,
    requirements_in,
    tensorflow_specifier,
)
from tf24migrate.verify.runtimes import (
    MARKER,
    Progress,
    RuntimeUnavailable,
    last_error_line,
    locked,
    run_step,
    user_cache,
)

PTH = "tf24migrate-runtime.pth"
_TENSORFLOW_NAMES = ("tensorflow", "tensorflow-cpu", "tensorflow-gpu")


def project_requirements(path: str, *, with_pytest: bool = False) -> list[str]:
    """The requirements the project at `path` declares, its extras for tests included (its
    checks need them), TensorFlow's left out, each once, sorted; with `with_pytest`, pytest
    added unless it is named (`pytest-mock` does not name it)."""
    folder = project_folder(path) or os.path.abspath(path)
    found = {
        " ".join(requirement.split())
        for _, requirement in requirements_in(folder, lambda extra: for_the_code(extra) or _for_tests(extra))
        if tensorflow_specifier(requirement) is None
    }
    if with_pytest and "pytest" not in {_name(requirement) for requirement in found}:
        found.add("pytest")
    return sorted(found)


def _name(requirement: str) -> str:
    """The distribution a requirement names, in lower case (`pytest` of `pytest>=6`)."""
    return re.split(r"[\s\[<>=!~;(@]", requirement, maxsplit=1)[0].lower()


def _for_tests(extra: str) -> bool:
    """Whether an extra's name says it is for tests (`test`, `tests`, `testing`, `test-gpu`)."""
    return not {"test", "tests", "testing"}.isdisjoint(re.split(r"[-_.]+", extra.lower()))


def environments_root() -> Path:
    """Where the projects' environments are: `$TF24MIGRATE_ENVIRONMENTS`, else the user's cache."""
    if os.environ.get("TF24MIGRATE_ENVIRONMENTS"):
        return Path(os.environ["TF24MIGRATE_ENVIRONMENTS"])
    return user_cache() / "environments"


def _site_packages(python: Path) -> str:
    """The `site-packages` folder of the environment of `python`."""
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _base_interpreter(runtime: Path) -> Path:
    """The interpreter the runtime's virtual environment was made from (its `pyvenv.cfg` home)."""
    config = runtime.parent.parent / "pyvenv.cfg"
    for line in config.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home":
            for name in ("python3", "python"):
                if (Path(value.strip()) / name).exists():
                    return Path(value.strip()) / name
    raise RuntimeUnavailable(f"{config} names no interpreter: remove {runtime.parent.parent} and run again")


def project_environment(
    runtime: Path,
    release: str,
    requirements: Sequence[str],
    source: str,
    say: Callable[[str], None],
    progress: Progress | None = None,
) -> Path:
    """The interpreter of an environment holding `runtime`'s TensorFlow `release` and
    `requirements`, made when missing (`source`: the folder pip resolves relative paths from).
    Without requirements, the runtime itself. Raises `RuntimeUnavailable` when they do not install."""
    if not requirements:
        return runtime
    key = hashlib.sha256(json.dumps([str(runtime), release, list(requirements)]).encode()).hexdigest()[:16]
    folder = environments_root() / f"tf-{release}-{key}"
    with locked(folder.with_suffix(".lock")):  # two runs at once: the second waits, then uses it
        return _made(folder, runtime, release, requirements, source, say, progress)


def _made(
    folder: Path,
    runtime: Path,
    release: str,
    requirements: Sequence[str],
    source: str,
    say: Callable[[str], None],
    progress: Progress | None,
) -> Path:
    """The interpreter of the environment `folder`, made first when it is not complete."""
    python = folder / "bin" / "python"
    if (folder / MARKER).is_file() and python.exists():
        return python
    shutil.rmtree(folder, ignore_errors=True)  # a run stopped while making it
    say(f"installing the project's dependencies beside TensorFlow {release}: {', '.join(requirements)}")
    try:
        subprocess.run(
            [str(_base_interpreter(runtime)), "-m", "venv", "--without-pip", str(folder)],
            capture_output=True,
            check=True,
        )
        own = Path(_site_packages(python))
        (own / PTH).write_text(_site_packages(runtime) + "\n", encoding="utf-8")
        constraints = folder / "constraints.txt"
        constraints.write_text("".join(f"{name}=={release}\n" for name in _TENSORFLOW_NAMES))
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input"]
        status, output = run_step([*pip, "--constraint", str(constraints), *requirements], progress, source)
        if status != 0:
            raise RuntimeUnavailable(
                f"the project's dependencies do not install beside TensorFlow {release}: "
                f"{last_error_line(output)} (fix the requirement, or pass "
                "--before-python/--after-python with environments of your own)"
            )
        (folder / MARKER).write_text(
            json.dumps({"release": release, "requirements": list(requirements)}) + "\n"
        )
    except (OSError, subprocess.CalledProcessError) as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeUnavailable(f"cannot make an environment in {folder}: {error}") from None
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return python
