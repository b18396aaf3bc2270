"""The README's first steps for a project whose own environment is Python 3.6-3.8 (TF 2.3 and 2.4
projects are): the tool runs from an environment of its own (here: this test's), beside the
project's pyenv Python 3.8 environment, which it never touches; the target comes from the
project's requirements, and the migrated code is still the project's Python's."""

from __future__ import annotations

import glob
import os
import subprocess

import pytest
from command_line import run

PYTHON38 = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.8*/bin/python")))

CODE = (
    "import tensorflow as tf\n"
    "\n"
    "strategy = tf.distribute.MirroredStrategy()\n"
    "strategy.experimental_run_v2(print, args=('x',))\n"
)


@pytest.mark.skipif(not PYTHON38, reason="needs a pyenv Python 3.8 (`pyenv install 3.8`)")
def test_the_tool_migrates_a_python38_project_from_its_own_environment(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "requirements.txt").write_text("tensorflow==2.3.0\n")
    (project / "train.py").write_text(CODE)
    subprocess.run([PYTHON38[-1], "-m", "venv", "--without-pip", str(project / ".venv")], check=True)
    before = sorted(str(p) for p in (project / ".venv").rglob("*"))

    result = run("--write", ".", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "target TensorFlow 2.3 (from requirements.txt: tensorflow==2.3.0)" in result.stderr
    assert "1 file scanned" in result.stderr  # the project's .venv is no source of its own
    assert "strategy.run(print, args=('x',))" in (project / "train.py").read_text()
    assert sorted(str(p) for p in (project / ".venv").rglob("*")) == before
    compiled = subprocess.run(
        [str(project / ".venv" / "bin" / "python"), "-m", "py_compile", "train.py"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert compiled.returncode == 0, compiled.stderr  # still Python 3.8 code
