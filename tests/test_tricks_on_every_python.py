"""The start-up tricks (`tf24migrate.model.tricks`) change nothing a user sees, on every Python the
package supports: the wheel (with the `server` extra) installed in a virtual environment of each
pyenv Python 3.10-3.13, the command run on every fixture (in two worker processes, and in one),
`--list-rules`, `--explain` and `--version`, and the language server's diagnostics of a file,
with the tricks on (twice: the first run writes the code caches, the second runs from them) and
with `TF24MIGRATE_OFF=all`, give the same streams and the same exit status; and the tricks are
really on, and really off (the code caches written, or not)."""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from wheels import build_wheel

ROOT = Path(__file__).resolve().parent.parent
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
TIMED = re.compile(r" in \d+\.\d+s$", re.MULTILINE)  # the summary line's time
PAGES = re.compile(r"tf24migrate-rules-[^/]+/")  # the server's folder of rule pages, one per process


def _pyenv(version: str) -> str | None:
    found = sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python")))
    return found[-1] if found else None


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("dist"))


def _project(folder: Path) -> Path:
    """Every fixture's input, in one tree (a folder per rule, as in `fixtures/`)."""
    for source in sorted((ROOT / "fixtures").glob("*/*.py")):
        if not source.name.endswith(".expected.py"):
            (folder / source.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(source, folder / source.parent.name / source.name)
    (folder / ".git").mkdir()
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("version", SUPPORTED)
def test_the_tricks_change_nothing_a_user_sees(tmp_path, wheel, version):
    sys.path.insert(0, str(ROOT / "scripts"))
    from lsp_raw import RawServer

    python = _pyenv(version)
    if python is None:
        pytest.skip(f"needs a pyenv Python {version} (`pyenv install {version}`)")
    environment = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(environment)], check=True, capture_output=True)
    installed = subprocess.run(
        [environment / "bin" / "python", "-m", "pip", "install", "--quiet", f"{wheel}[server]"],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    project = _project(tmp_path / "project")
    base = {
        key: value
        for key, value in os.environ.items()
        if key not in ("TF24MIGRATE_OFF", "PYTHONDONTWRITEBYTECODE")
    }

    def runs(off: str | None, cache: Path) -> list[tuple[int, str, str]]:
        env = {**base, "XDG_CACHE_HOME": str(cache), "TF24MIGRATE_CACHE_DIR": str(tmp_path / "results")}
        if off is not None:
            env["TF24MIGRATE_OFF"] = off
        seen = []
        for arguments in (
            ["--diff", "--no-cache", "--jobs", "2", "."],
            ["--diff", "--no-cache", "--jobs", "1", "."],
            ["--list-rules"],
            ["--explain", "TF24101"],
            ["--version"],
        ):
            done = subprocess.run(
                [environment / "bin" / "tf24migrate", *arguments],
                cwd=project,
                env=env,
                capture_output=True,
                text=True,
            )
            seen.append((done.returncode, done.stdout, TIMED.sub(" in Ts", done.stderr)))
        server = RawServer(project, env=env, command=[str(environment / "bin" / "tf24migrate"), "server"])
        assert server.initialize(project) is not None
        uri = (project / "TF24101-experimental-run-v2" / "receivers.py").as_uri()
        server.open(uri, (project / "TF24101-experimental-run-v2" / "receivers.py").read_text())
        seen.append((0, PAGES.sub("PAGES/", repr(server.diagnostics(uri, timeout=120))), ""))
        server.notify("exit")
        seen.append((server.close()[0], "", ""))
        return seen

    first = runs(None, tmp_path / "on")
    assert first[0][0] == 1 and first[0][1].count("+++ b/") > 90, first[0][2][-2000:]
    assert first[0] == first[1] and "TF24101" in first[-2][1]
    cached = sorted(path.name.split(".")[0] for path in (tmp_path / "on" / "tf24migrate").iterdir())
    assert cached == ["dataclass-code-engine", "dataclass-code-server"]
    second = runs(None, tmp_path / "on")
    off = runs("all", tmp_path / "off")
    assert not (tmp_path / "off").exists()  # no code cache: `exec` as Python has it
    assert first == second == off
