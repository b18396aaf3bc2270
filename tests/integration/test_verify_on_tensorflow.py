"""`tf24migrate verify` on the real TensorFlow 2.3.0 and 2.4.0 runtimes (`scripts/runtimes.py`),
with the projects' dependencies installed beside them as a user's run installs them (pytest here),
in environments of this module's own. Each test is one run of the command: two checks, one on
each release, at once (a few seconds each: TensorFlow is imported in each).

- a pytest suite that fails on 2.4.0 as written and passes once migrated;
- a break the migration only reports: exit 1, the finding named on the failing frame;
- a dependency that cannot be installed: one line, exit 2;
- import mode, on a module using `tf.python`, which TF 2.4 no longer exports.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from releases import interpreter

pytestmark = pytest.mark.tensorflow

STEPS = """\
import tensorflow as tf


def doubled(values):
    strategy = tf.distribute.get_strategy()
    result = strategy.experimental_run_v2(lambda x: x * 2, args=(tf.constant(values),))
    return result.numpy().tolist()
"""
TEST_STEPS = """\
from mathlib.steps import doubled


def test_doubled():
    assert doubled([1, 2]) == [2, 4]


def test_plain():
    assert sum([1, 2]) == 3
"""
GPU = """\
import tensorflow as tf
from tensorflow.keras.utils import multi_gpu_model


def parallel(model, gpus=1):
    return multi_gpu_model(model, gpus=gpus) if gpus > 1 else model


def small_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
"""
TEST_GPU = """\
from mathlib.gpu import parallel, small_model


def test_one_gpu_keeps_the_model():
    model = small_model()
    assert parallel(model) is model
"""
LEGACY = """\
import tensorflow as tf

clear_session = tf.python.keras.backend.clear_session
"""


@pytest.fixture(scope="module")
def environments(tmp_path_factory) -> Path:
    """The projects' environments of this module's tests (made by the first run that needs one)."""
    for release in ("2.3.0", "2.4.0"):
        interpreter(release)  # skips, saying how to get them, where the runtimes are missing
    return tmp_path_factory.mktemp("environments")


def project(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def verify(environments: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**__import__("os").environ, "TF24MIGRATE_ENVIRONMENTS": str(environments)}
    return subprocess.run(
        [sys.executable, "-m", "tf24migrate", "verify", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def test_a_suite_failing_on_24_as_written_passes_once_migrated(tmp_path, environments):
    root = project(
        tmp_path / "proj",
        {"mathlib/__init__.py": "", "mathlib/steps.py": STEPS, "tests/test_steps.py": TEST_STEPS},
    )
    result = verify(environments, str(root), "--output-format", "json", "--", "pytest", "-q")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["before"]["passed"], report["after"]["passed"]) == (2, 2)
    assert report["migration"]["files_changed"] == ["mathlib/steps.py"]
    # The same suite as written, on the project's 2.4.0 environment: test_doubled fails there.
    result = verify(
        environments, str(root), "--output-format", "json", "--before-python", report["after"]["python"],
        "--", "pytest", "-q",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["before"]["tensorflow"] == report["after"]["tensorflow"] == "2.4.0"
    assert (report["before"]["returncode"], report["after"]["returncode"]) == (1, 0)
    (fixed,) = report["fixed"]
    assert fixed["test"] == "tests.test_steps::test_doubled"
    assert "has no attribute 'experimental_run_v2'" in fixed["error"]
    assert (fixed["file"], fixed["line"]) == ("mathlib/steps.py", 6)
    assert [(f["code"], f["fixed"]) for f in fixed["findings"]] == [("TF24101", True)]


def test_a_report_only_break_exits_1_naming_the_finding_on_the_failing_frame(tmp_path, environments):
    root = project(
        tmp_path / "proj", {"mathlib/__init__.py": "", "mathlib/gpu.py": GPU, "tests/test_gpu.py": TEST_GPU}
    )
    result = verify(environments, str(root), "--output-format", "json", "--", "pytest", "-q")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert (report["before"]["returncode"], report["before"]["passed"]) == (0, 1)
    (regression,) = report["regressions"]  # the test module no longer imports
    assert regression["test"] == "tests.test_gpu"
    assert (regression["file"], regression["line"]) == ("mathlib/gpu.py", 2)
    assert [(f["code"], f["fixed"]) for f in regression["findings"]] == [("TF24202", False)]
    assert [frame["file"] for frame in regression["frames"]] == ["tests/test_gpu.py", "mathlib/gpu.py"]


def test_a_dependency_that_cannot_be_installed_is_one_line_exit_2(tmp_path, environments):
    root = project(
        tmp_path / "proj",
        {
            "mathlib/__init__.py": "",
            "mathlib/steps.py": STEPS,
            "requirements.txt": "tensorflow==2.3.0\n./wheels/mathhelpers-1.0-py3-none-any.whl\n",
        },
    )
    result = verify(environments, str(root), "--", "python", "-c", "import mathlib.steps")
    assert result.returncode == 2, result.stderr
    (error,) = [line for line in result.stderr.splitlines() if "error" in line]
    assert error.startswith(
        "tf24migrate: error: the project's dependencies do not install beside TensorFlow 2.3.0: "
    )
    assert "mathhelpers-1.0-py3-none-any.whl" in error and result.stdout == ""


def test_import_mode_finds_the_removed_private_module(tmp_path, environments):
    root = project(
        tmp_path / "proj", {"pkg/__init__.py": "", "pkg/legacy.py": LEGACY, "pkg/other.py": "X = 1\n"}
    )
    result = verify(environments, str(root))
    assert result.returncode == 1, result.stderr
    assert "  before: TensorFlow 2.3.0, as written: exit 0" in result.stdout
    assert (
        "Pass before, fail after (regressions):\n  pkg.legacy: AttributeError: module 'tensorflow' has no "
        "attribute 'python'\n    pkg/legacy.py:3\n      TF24501 (reported): `tf.python`" in result.stdout
    )
