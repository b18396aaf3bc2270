"""Programs written for TF 2.3 fail on a real TensorFlow (2.15.1 in CI) as written, and run once
migrated by the command line. Skipped when TensorFlow is not installed."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"
pytestmark = [
    pytest.mark.tensorflow,
    pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None, reason="tensorflow is not installed"),
]

# program -> text the failure as written must show
EXPECTED_FAILURES = {
    "custom_training_loop.py": "experimental_run_v2",
    "data_service.py": "unexpected keyword argument 'port'",
    "mixed_precision.py": "cannot import name 'experimental'",
    "multi_worker.py": "experimental_run_v2",
    "numpy_dataset.py": "experimental_make_numpy_dataset",
}


def run_program(path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "CUDA_VISIBLE_DEVICES": ""}
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("name", sorted(EXPECTED_FAILURES))
def test_program_fails_as_written_and_runs_migrated(name, tmp_path):
    program = tmp_path / name
    shutil.copy(PROGRAMS / name, program)

    before = run_program(program)
    assert before.returncode != 0, f"{name} ran unmigrated:\n{before.stdout}"
    assert EXPECTED_FAILURES[name] in before.stderr

    migrated = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--write", str(program)], capture_output=True, text=True
    )
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    assert program.read_text() != (PROGRAMS / name).read_text()

    after = run_program(program)
    assert after.returncode == 0, f"migrated {name} failed:\n{program.read_text()}\n{after.stderr[-3000:]}"
    assert after.stdout.strip().endswith("OK")
