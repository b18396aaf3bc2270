"""`scripts/runtimes.py`, which makes the TensorFlow 2.3.0 and 2.4.0 environments of the integration
tests: where it finds a Python 3.8, where the environments live, when one counts as made, and what it
says where it cannot make them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "runtimes.py"


def run_script(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env)


def fake_python(path: Path) -> Path:
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def bare_env(tmp_path) -> dict[str, str]:
    """An environment whose PATH holds no pyenv and no python3.8, and an empty cache."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    return {"PATH": str(bin_dir), "HOME": str(tmp_path), "TF24MIGRATE_RUNTIMES": str(tmp_path / "runtimes")}


def test_without_a_python_38_it_makes_nothing_and_says_how_to_get_one(bare_env):
    result = run_script(env=bare_env)
    assert result.returncode == 0, result.stderr
    assert "TensorFlow 2.3.0 skipped: no Python 3.8 found" in result.stdout
    assert "pyenv install 3.8" in result.stdout
    assert not Path(bare_env["TF24MIGRATE_RUNTIMES"]).exists()


def test_the_newest_pyenv_38_is_found_through_pyenv_root(tmp_path, bare_env):
    root = tmp_path / "pyenv"
    for version in ("3.8.2", "3.8.18", "3.9.1"):
        fake_python(root / "versions" / version / "bin" / "python")
    pyenv = Path(bare_env["PATH"]) / "pyenv"
    pyenv.write_text(f"#!/bin/sh\necho {root}\n")
    pyenv.chmod(0o755)
    code = "import runtimes; print(runtimes.find_interpreter())"
    env = {**bare_env, "PYTHONPATH": str(SCRIPT.parent)}
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert found.stdout.strip() == str(root / "versions" / "3.8.18" / "bin" / "python"), found.stderr


def test_an_environment_counts_only_with_its_marker(tmp_path, bare_env):
    folder = Path(bare_env["TF24MIGRATE_RUNTIMES"]) / "tf-2.3.0"
    fake_python(folder / "bin" / "python")
    listed = run_script("--list", env=bare_env)
    assert "TensorFlow 2.3.0: not made" in listed.stdout
    (folder / "tf24migrate-runtime.json").write_text("{}\n")
    listed = run_script("--list", env=bare_env)
    assert f"TensorFlow 2.3.0: {folder / 'bin' / 'python'}" in listed.stdout


def test_the_cache_is_the_users_by_default(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("TF24MIGRATE_RUNTIMES", "XDG_CACHE_HOME")}
    env["HOME"] = str(tmp_path)
    listed = run_script("--list", env=env)
    assert "TensorFlow 2.4.0: not made" in listed.stdout
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    folder = tmp_path / "xdg" / "tf24migrate" / "runtimes" / "tf-2.4.0"
    fake_python(folder / "bin" / "python")
    (folder / "tf24migrate-runtime.json").write_text("{}\n")
    assert f"TensorFlow 2.4.0: {folder / 'bin' / 'python'}" in run_script("--list", env=env).stdout


def test_pyenvs_default_root_counts_when_pyenv_is_not_on_path(tmp_path, bare_env):
    python = fake_python(tmp_path / ".pyenv" / "versions" / "3.8.18" / "bin" / "python")
    code = "import runtimes; print(runtimes.find_interpreter())"
    env = {**bare_env, "PYTHONPATH": str(SCRIPT.parent)}
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert found.stdout.strip() == str(python), found.stderr
