"""`tf24migrate verify` without TensorFlow: the command, its report, its exit codes, what it leaves
behind, its timeout and Ctrl-C, run through the real command on the real migration.

The two "releases" here are fake interpreters (`fake_release`): this Python, with a tiny
`tensorflow` package of the version asked for on its path, enough to tell 2.3 from 2.4 where the
tests need it (`experimental_run_v2` and `tf.python` are gone from 2.4, as in the real ones).
The same checks on the real releases are in `tests/integration/test_verify_on_tensorflow.py`.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

FAKE_TENSORFLOW = """\
__version__ = "{version}"


class _Strategy:
    def run(self, fn, args=()):
        return fn(*args)

    if __version__ < "2.4":
        experimental_run_v2 = run


class distribute:
    @staticmethod
    def get_strategy():
        return _Strategy()


if __version__ < "2.4":
    python = object()
"""

STEPS = """\
import tensorflow as tf


def doubled(value):
    strategy = tf.distribute.get_strategy()
    return strategy.experimental_run_v2(lambda x: x * 2, args=(value,))
"""

LEGACY = """\
import tensorflow as tf

internal = tf.python
"""


def fake_release(folder: Path, version: str) -> Path:
    """An interpreter (a script running this Python) whose `tensorflow` is a fake of `version`,
    installed as far as its metadata says."""
    site = folder / "site"
    (site / "tensorflow").mkdir(parents=True)
    (site / "tensorflow" / "__init__.py").write_text(FAKE_TENSORFLOW.format(version=version))
    info = site / f"tensorflow-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: tensorflow\nVersion: {version}\n")
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        f'#!/bin/sh\nPYTHONPATH="{site}${{PYTHONPATH:+:$PYTHONPATH}}" exec {sys.executable} "$@"\n'
    )
    python.chmod(0o755)
    return python


@pytest.fixture
def releases(tmp_path) -> dict[str, Path]:
    return {version: fake_release(tmp_path / f"tf-{version}", version) for version in ("2.3.0", "2.4.0")}


@pytest.fixture
def scratch_root(tmp_path, monkeypatch) -> Path:
    """The folder temporary files go to (the scratch copies): empty after each run."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


def project(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def verify(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tf24migrate", "verify", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def on(releases: dict[str, Path], before: str = "2.3.0", after: str = "2.4.0") -> list[str]:
    return ["--before-python", str(releases[before]), "--after-python", str(releases[after])]


def digests(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


CHECK_DOUBLED = "from pkg.steps import doubled; assert doubled(2) == 4"


def test_help_says_it_runs_the_users_code():
    result = verify("--help")
    assert result.returncode == 0, result.stderr
    assert "Usage: tf24migrate verify [OPTIONS] [PATH] [-- CMD [ARGS]...]" in result.stdout
    assert "THIS RUNS YOUR PROJECT'S CODE" in result.stdout


def test_a_fix_is_proven_and_the_project_is_untouched(tmp_path, releases, scratch_root):
    root = project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/steps.py": STEPS})
    before = digests(root)
    # As written on "2.4" it fails; migrated, it passes.
    result = verify(
        str(root), "--output-format", "json", *on(releases, "2.4.0"), "--", "python", "-c", CHECK_DOUBLED
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["before"]["returncode"] == 1 and report["after"]["returncode"] == 0
    assert report["before"]["tensorflow"] == "2.4.0"
    assert report["migration"]["files_changed"] == ["pkg/steps.py"]
    (fixed,) = report["fixed"]
    assert fixed["test"] == f"python -c {CHECK_DOUBLED}"
    assert (fixed["file"], fixed["line"]) == ("pkg/steps.py", 6)
    assert [f["code"] for f in fixed["findings"]] == ["TF24101"] and fixed["findings"][0]["fixed"]
    assert "experimental_run_v2" in fixed["error"]
    assert report["regressions"] == [] and report["failures"] == []
    assert digests(root) == before and not any(root.rglob("__pycache__"))
    assert list(scratch_root.iterdir()) == []


def test_a_report_only_break_exits_1_and_names_the_finding_on_the_frame(tmp_path, releases, scratch_root):
    root = project(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/legacy.py": LEGACY})
    result = verify(str(root), *on(releases), "--", "python", "-c", "import pkg.legacy")
    assert result.returncode == 1, result.stderr
    assert "Pass before, fail after (regressions):" in result.stdout
    assert "AttributeError: module 'tensorflow' has no attribute 'python'" in result.stdout
    frame = result.stdout.index("    pkg/legacy.py:3\n")
    assert result.stdout[frame:].splitlines()[1].startswith("      TF24501 (reported): `tf.python`")
    assert result.stdout.rstrip().endswith("verify: the check fails on TensorFlow 2.4.0 after the migration")
    assert list(scratch_root.iterdir()) == []


def test_import_mode_imports_the_modules_with_findings(tmp_path, releases, scratch_root):
    root = project(
        tmp_path / "proj", {"pkg/__init__.py": "", "pkg/legacy.py": LEGACY, "pkg/plain.py": "VALUE = 1\n"}
    )
    result = verify(str(root), "--output-format", "json", *on(releases))
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["mode"] == "import" and report["before"]["passed"] == 1
    (regression,) = report["regressions"]
    assert regression["test"] == "pkg.legacy"  # pkg.plain has nothing to check
    assert (regression["file"], regression["line"]) == ("pkg/legacy.py", 3)
    assert [f["code"] for f in regression["findings"]] == ["TF24501"]


def test_pytest_is_read_test_by_test(tmp_path, releases, scratch_root, monkeypatch):
    # The project's two pytest runs need none of the plugins installed beside this suite's
    # (xdist, asyncio, pytest-lsp, hypothesis): loading them was 1 s of CPU each. `--junitxml`, which
    # the command reads, is pytest's own.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    tests = (
        "from pkg.steps import doubled\n\n\ndef test_doubled():\n    assert doubled(2) == 4\n\n\n"
        "def test_plain():\n    assert 1 + 1 == 2\n\n\ndef test_broken():\n    assert 1 + 1 == 3\n"
    )
    root = project(
        tmp_path / "proj", {"pkg/__init__.py": "", "pkg/steps.py": STEPS, "tests/test_steps.py": tests}
    )
    result = verify(
        str(root),
        "--output-format",
        "json",
        *on(releases, "2.4.0"),
        "--",
        "python",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
    )
    assert result.returncode == 1, result.stderr  # test_broken fails after too
    report = json.loads(result.stdout)
    assert (report["before"]["passed"], report["before"]["failed"]) == (1, 2)
    assert (report["after"]["passed"], report["after"]["failed"]) == (2, 1)
    assert [entry["test"] for entry in report["fixed"]] == ["tests.test_steps::test_doubled"]
    assert report["fixed"][0]["file"] == "pkg/steps.py" and report["fixed"][0]["line"] == 6
    assert [entry["test"] for entry in report["failures"]] == ["tests.test_steps::test_broken"]
    assert report["regressions"] == []


def test_the_timeout_ends_a_run_as_a_failure(tmp_path, releases, scratch_root):
    root = project(tmp_path / "proj", {"pkg/__init__.py": ""})
    started = time.monotonic()
    result = verify(
        str(root), "--timeout", "0.3", *on(releases), "--", "python", "-c", "import time; time.sleep(60)"
    )
    assert result.returncode == 1, result.stderr
    assert time.monotonic() - started < 30
    assert "timed out after 0.3 s" in result.stdout
    assert list(scratch_root.iterdir()) == []


def test_ctrl_c_ends_both_runs_and_leaves_no_scratch_folder(tmp_path, releases, scratch_root):
    root = project(tmp_path / "proj", {"pkg/__init__.py": ""})
    pids = tmp_path / "pids"
    pids.mkdir()
    sleeper = (
        f"import os, time; open(os.path.join({str(pids)!r}, str(os.getpid())), 'w').close(); time.sleep(60)"
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tf24migrate",
            "verify",
            str(root),
            *on(releases),
            "--",
            "python",
            "-c",
            sleeper,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    children = [int(path.name) for path in pids.iterdir()]
    assert len(children) == 2, process.communicate(timeout=10)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "stopped: both runs ended, the scratch copies removed" in stderr
    for pid in children:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert list(scratch_root.iterdir()) == []


def test_a_check_that_cannot_start_is_one_line_exit_2(tmp_path, releases, scratch_root):
    root = project(tmp_path / "proj", {"pkg/__init__.py": ""})
    result = verify(str(root), "-q", *on(releases), "--", "no-such-check-48", "-q")
    assert result.returncode == 2, result.stdout
    assert result.stderr.splitlines() == [
        "tf24migrate: error: no-such-check-48: cannot be started on TensorFlow 2.3.0 (No such file or "
        f"directory): name a program on PATH or in {releases['2.3.0'].parent}"
    ]
    assert result.stdout == "" and list(scratch_root.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--"], "nothing after `--`: name the check to run"),
        (["missing-folder", "--", "true"], "missing-folder: not a folder"),
        (["--before-python", "{bare}", "--", "true"], "no TensorFlow installed there"),
        (["--select", "TF99999", "--", "true"], "TF99999"),
    ],
)
def test_usage_and_environment_errors_are_one_line_exit_2(tmp_path, args, message):
    bare = tmp_path / "bare-python"  # this Python without its site-packages: no TensorFlow at all
    bare.write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n')
    bare.chmod(0o755)
    result = verify(*(arg.format(bare=bare) for arg in args), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("tf24migrate: error: ")
    assert message in result.stderr


def test_a_folder_named_verify_is_still_migrated_as_a_path(tmp_path):
    project(tmp_path / "verify", {"steps.py": STEPS})
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--check", "verify"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 1 and "verify/steps.py" in result.stdout, result.stderr


def test_the_projects_requirements_are_its_metadatas_and_its_tests_without_tensorflow(tmp_path):
    from tf24migrate.verify.environments import project_requirements

    project(
        tmp_path,
        {
            "requirements.txt": "tensorflow==2.3.0\nnumpy>=1.18  # arrays\n-r requirements-extra.txt\n",
            "requirements-extra.txt": "terminaltables\n",
            "pyproject.toml": (
                '[project]\nname = "p"\ndependencies = ["tensorflow-cpu>=2.3", "pillow"]\n'
                '[project.optional-dependencies]\ntest = ["pytest-mock"]\ndocs = ["sphinx"]\n'
                'gpu = ["tensorflow-gpu>=2.3"]\n'
            ),
        },
    )
    assert project_requirements(str(tmp_path)) == ["numpy>=1.18", "pillow", "pytest-mock", "terminaltables"]
    assert "pytest" in project_requirements(str(tmp_path), with_pytest=True)  # pytest-mock is not pytest
    (tmp_path / "requirements-test.txt").write_text("PyTest>=6\n")
    assert "pytest" not in project_requirements(str(tmp_path), with_pytest=True)


def test_without_a_python_38_one_line_says_how_to_get_one(tmp_path):
    (tmp_path / "bin").mkdir()
    root = project(tmp_path / "proj", {"pkg/__init__.py": ""})
    env = {
        "PATH": str(tmp_path / "bin"),
        "HOME": str(tmp_path),
        "TF24MIGRATE_RUNTIMES": str(tmp_path / "runtimes"),
        "TF24MIGRATE_ENVIRONMENTS": str(tmp_path / "environments"),
    }
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "verify", str(root), "--", "python", "-c", "pass"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "tf24migrate: error: TensorFlow 2.3.0 is not installed: no Python 3.8 found through `pyenv root` "
        "(versions/3.8.*/bin/python) or as python3.8 on PATH: install one (`pyenv install 3.8`), then run "
        "`tf24migrate verify`"
    ]
    assert not (tmp_path / "runtimes").exists() and not (tmp_path / "environments").exists()


def test_a_long_step_is_heard_about_every_second_and_its_output_kept():
    from tf24migrate.verify.runtimes import run_step

    heard: list[float] = []
    status, output = run_step(
        [
            sys.executable,
            "-c",
            "import sys, time; time.sleep(1.6); print('out', flush=True); sys.exit('ERROR: no')",
        ],
        heard.append,
    )
    assert status == 1 and output.splitlines() == ["out", "ERROR: no"]
    assert heard and heard == sorted(heard) and 0.9 < heard[0] < 1.6


def test_the_copy_is_migrated_as_the_command_migrates_each_files_project(tmp_path, releases, scratch_root):
    scaled = 'import tensorflow as tf\n\nopt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt, "dynamic")\n'
    root = project(
        tmp_path / "proj",
        {"a.py": scaled, "sub/requirements.txt": "tensorflow>=2.3\n", "sub/b.py": scaled},
    )
    check = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--check", "."], capture_output=True, text=True, cwd=root
    )
    assert "would change: ./a.py" in check.stdout and "would change: ./sub" not in check.stdout, check.stderr
    result = verify(str(root), "-q", "--output-format", "json", *on(releases), "--", "python", "-c", "pass")
    assert result.returncode == 0, result.stderr
    migration = json.loads(result.stdout)["migration"]
    assert migration["files_changed"] == ["a.py"] and migration["findings"] == 2


def test_an_environment_is_made_by_one_run_at_a_time(tmp_path):
    from tf24migrate.verify.runtimes import locked

    lock = tmp_path / "environments" / "tf-2.4.0.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from tf24migrate.verify.runtimes import locked\n"
            f"with locked(Path({str(lock)!r})):\n    print('held', flush=True); time.sleep(1)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "held\n"
    started = time.monotonic()
    with locked(lock):
        waited = time.monotonic() - started
    holder.wait(timeout=30)
    assert 0.3 < waited < 30
