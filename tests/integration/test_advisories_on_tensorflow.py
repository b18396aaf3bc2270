"""The advisories are true on a real TensorFlow (2.15.1 in CI): code reported as an error fails, and
the unsafe fixes give back the TF 2.3 behaviour. Skipped when TensorFlow is not installed."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "advisory_programs"
pytestmark = [
    pytest.mark.tensorflow,
    pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None, reason="tensorflow is not installed"),
]


def run_program(path: Path) -> dict:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "CUDA_VISIBLE_DEVICES": ""}
    result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def tf24migrate(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tf24migrate", *map(str, args)], capture_output=True, text=True
    )


def test_each_reported_error_fails_on_tensorflow():
    program = PROGRAMS / "failures.py"
    findings = json.loads(tf24migrate("--output-format", "json", program).stdout)["findings"]
    reported = {f["code"] for f in findings if f["severity"] == "error"}
    outcome = run_program(program)
    assert reported == set(outcome)
    assert "ran" not in outcome.values(), outcome


def test_unsafe_fixes_keep_the_tf23_meaning(tmp_path):
    program = tmp_path / "unsafe_fixes.py"
    shutil.copy(PROGRAMS / "unsafe_fixes.py", program)
    before = run_program(program)
    assert before["symbolic_is_tensor"] is False  # what TF 2.4 broke

    migrated = tf24migrate("--write", "--unsafe-fixes", "--select", "TF24210,TF24505", program)
    assert "TF24505 info [fixed]" in migrated.stdout and "TF24210 warning [fixed]" in migrated.stdout
    assert "grad_pass_through(lambda _t:" in program.read_text()

    after = run_program(program)
    assert after["symbolic_is_tensor"] is True
    assert after["eager"] == after["graph"] == before["eager"] == [1.0, 1.0, 1.0, 1.0, 1.0]
