"""The GitHub Action (`action.yml`): its steps' commands run here as the runner runs them (bash, the
inputs' defaults in their environment), in a repository whose project is in a subfolder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
CODE = "import tensorflow as tf\nstrategy.experimental_run_v2(f)\nm = tf.keras.utils.multi_gpu_model(m, 2)\n"


def step(name: str) -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("name") == name)


def environment(one: dict, **expressions: str) -> dict[str, str]:
    """The step's `env`, each `${{ ... }}` replaced: inputs by their defaults, others by `expressions`."""
    defaults = {f"inputs.{name}": str(spec["default"]) for name, spec in ACTION["inputs"].items()}
    values = {**defaults, **expressions}
    return {
        key: re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: values[m.group(1)], value)
        for key, value in one.get("env", {}).items()
    }


def test_the_action_runs_the_check_with_annotations_named_from_the_repository_top(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    project = tmp_path / "services" / "model"
    project.mkdir(parents=True)
    (project / "train.py").write_text(CODE)
    run_step = step("Run tf24migrate")
    assert run_step["shell"] == "bash"
    env = {
        **os.environ,
        **environment(run_step),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    result = subprocess.run(
        ["bash", "-e", "-c", run_step["run"]], cwd=project, env=env, capture_output=True, text=True
    )
    assert result.returncode == 1, result.stderr  # the job fails: something is due
    assert [line.split(",")[0] for line in result.stdout.splitlines()] == [
        "::error file=services/model/train.py",
        "::error file=services/model/train.py",
    ]
    assert (project / "train.py").read_text() == CODE  # a check writes nothing


def test_the_action_runs_the_tool_on_a_python_of_its_own():
    setup = step("Set up the tool's Python")
    assert setup["uses"].startswith("actions/setup-python@")
    assert setup["with"]["update-environment"] is False  # the project's Python stays the job's
    install = step("Install tf24migrate")
    assert "${{ steps.python.outputs.python-path }}" in install["env"].values()
    assert float(ACTION["inputs"]["python-version"]["default"]) >= 3.10


@pytest.mark.slow
def test_the_install_step_installs_the_command(tmp_path):
    """The install step, as the runner runs it: a virtual environment in RUNNER_TEMP, the tool
    installed from the action's own folder, its `bin` added to GITHUB_PATH."""
    install = step("Install tf24migrate")
    path_file = tmp_path / "github_path"
    env = {
        **os.environ,
        **environment(install, **{"steps.python.outputs.python-path": sys.executable}),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_PATH": str(path_file),
    }
    subprocess.run(
        ["bash", "-e", "-c", install["run"]], env=env, check=True, capture_output=True, timeout=600
    )
    (folder,) = path_file.read_text().splitlines()
    version = subprocess.run([os.path.join(folder, "tf24migrate"), "-V"], capture_output=True, text=True)
    assert version.stdout.startswith("tf24migrate ")
