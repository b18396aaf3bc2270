"""The wheel installs into a fresh virtual environment, its command runs there, and it holds every
registered rule: packages are found by the build, never listed by hand."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

import pytest
from wheels import build_wheel

from tf24migrate.catalogue.selection import all_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_installs_and_runs(tmp_path):
    wheel = build_wheel(tmp_path / "dist")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", str(wheel)], check=True, capture_output=True)

    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert (Path(site) / "tf24migrate" / "transforms" / "distribute" / "renames.py").is_file()
    assert not (Path(site) / "transforms").exists(), "a generic top-level package was installed"

    sample = tmp_path / "sample.py"
    sample.write_text("strategy.experimental_run_v2(fn)\n")
    command = env_dir / "bin" / "tf24migrate"
    result = subprocess.run([command, "--write", str(sample)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sample.read_text() == "strategy.run(fn)\n"
    listed = subprocess.run(
        [python, "-m", "tf24migrate", "--list-rules"], capture_output=True, text=True, cwd=tmp_path
    )
    assert "TF24101" in listed.stdout
    installed = subprocess.run(
        [
            python,
            "-c",
            "from tf24migrate.catalogue.selection import all_rules\nfor r in all_rules(): print(r.code)",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    ).stdout.split()
    assert installed == [rule.code for rule in all_rules()]
