"""The user's own input never gives a traceback, an internal error or a hang (issue 31): odd
metadata, NUL bytes, huge numbers, invalid or pathological globs, deep trees, closed or full
standard streams. Each is a one-line error with exit 2, or a note and the run goes on."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from command_line import run

OLD = "import tensorflow as tf\nstrategy.experimental_run_v2(fn)\n"
COMMAND = [sys.executable, "-m", "tf24migrate"]


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "train.py").write_text(OLD)
    return tmp_path


def _clean(result, *codes):
    assert "Traceback" not in result.stderr and "internal" not in result.stderr, result.stderr
    assert result.returncode in codes, (result.returncode, result.stderr)


@pytest.mark.parametrize(
    "name, text, target",
    [
        (
            "setup.py",
            'REQUIRED = ["numpy"]\nREQUIRED = REQUIRED + ["tensorflow>=2.3"]\nsetup(install_requires=REQUIRED)\n',
            "2.3 (from setup.py: tensorflow>=2.3)",
        ),
        (
            "setup.py",
            "\n".join(
                [
                    'R = ["tensorflow>=2.3"]',
                    *(f'R = R + ["x{i}"]' for i in range(3000)),
                    "setup(install_requires=R)",
                ]
            ),
            "2.3 (from setup.py: tensorflow>=2.3)",
        ),
        ("pyproject.toml", "a = " + "[" * 3000 + "]" * 3000 + "\n", "2.4 (default"),
        (
            "pyproject.toml",
            '[project]\ndependencies = ["tensorflow>=2.' + "9" * 5000 + '"]\n',
            "2.4 (default",
        ),
    ],
)
def test_metadata_that_cannot_be_read_is_the_default_target(project, name, text, target):
    (project / name).write_text(text)
    result = run("--check", "--no-cache", ".", cwd=project, timeout=120)
    _clean(result, 1)
    assert f"target TensorFlow {target}" in result.stderr


def test_a_chain_of_3000_requirements_files(project):
    for number in range(3000):
        (project / f"requirements{number}.txt").write_text(f"-r requirements{number + 1}.txt\n")
    (project / "requirements3000.txt").write_text("tensorflow>=2.3\n")
    result = run("--check", "--no-cache", ".", cwd=project, timeout=120)
    _clean(result, 1)
    assert "target TensorFlow 2.3 (from requirements0.txt: tensorflow>=2.3)" in result.stderr


@pytest.mark.parametrize(
    "args, says",
    [
        (("--target-version", "2." + "9" * 5000), "--target-version"),
        (("--exclude", "\\"), "not a valid pattern"),
        (("--extend-exclude", "[z-a]"), "not a valid pattern"),
        (("--extend-exclude", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"), "too many wildcards"),
        (("--files-from", "/dev/zero"), "NUL byte"),
        (("--files-from", "list.txt"), "line 2 holds a NUL byte"),
    ],
)
def test_a_bad_option_value_is_a_one_line_error(project, args, says):
    (project / "list.txt").write_bytes(b"train.py\nb\0ad.py\n")
    result = run("--check", "--no-cache", *args, ".", cwd=project, timeout=60)
    _clean(result, 2)
    (line,) = result.stderr.splitlines()
    assert line.startswith("tf24migrate: error: ") and says in line


def test_a_nul_byte_in_the_configured_cache_dir_is_a_config_error(project):
    (project / "pyproject.toml").write_text('[tool.tf24migrate]\ncache-dir = "a\\u0000b"\n')
    result = run("--check", ".", cwd=project)
    _clean(result, 2)
    assert "cache-dir" in result.stderr


def test_patterns_that_backtrack_do_not_hang_the_walk(project):
    """Repeated `**/` is matched as one; a pattern with too many wildcards in a .gitignore is
    left out with a note naming it."""
    name = "a" * 60
    (project / f"{name}.py").write_text(OLD)
    (project / ".gitignore").write_text("**/" * 40 + "x\n" + "*a" * 20 + "*b\n")
    result = run("--check", "--no-cache", "--extend-exclude", "**/" * 40 + "y", ".", cwd=project, timeout=60)
    _clean(result, 1)
    assert "too many wildcards" in result.stderr and ".gitignore" in result.stderr
    assert result.stdout.count("would change") == 2


def test_folders_nested_1100_deep(project):
    fd = os.open(project, os.O_RDONLY)
    for _ in range(1100):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    handle = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
    os.write(handle, OLD.encode())
    os.close(handle)
    os.close(fd)
    try:
        result = run("--check", "--no-cache", ".", cwd=project, timeout=120)
    finally:  # pytest's own clean-up of old temporary folders recurses, and fails on this depth
        subprocess.run(["rm", "-rf", str(project / "d")], check=True)
    _clean(result, 1)
    assert result.stdout.count("would change") == 2


def _shell(command: str, cwd) -> subprocess.CompletedProcess:
    line = " ".join(COMMAND) + " " + command
    return subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "redirect, code, says",
    [
        ("--check --no-cache . > /dev/full", 2, "cannot write the output (No space left on device)"),
        ("--check --no-cache . >&-", 2, "the standard output is closed"),
        ("--check --no-cache . <&-", 1, ""),
        ("--check --no-cache - <&-", 0, ""),
    ],
)
def test_full_or_closed_standard_streams(project, redirect, code, says):
    result = _shell(redirect, project)
    _clean(result, code)
    assert says in result.stderr


def test_a_closed_pipe_stops_the_run_with_a_message(project):
    for number in range(40):
        (project / f"m{number:02}.py").write_text(OLD)
    result = _shell("--write --no-cache -j 1 . | true; exit ${PIPESTATUS[0]}", project)
    _clean(result, 2)
    assert "cannot write the output (Broken pipe)" in result.stderr
    for path in project.glob("*.py"):
        assert path.read_text() in (OLD, OLD.replace("experimental_run_v2", "run"))


def test_an_internal_failure_exits_2_with_one_line(project, monkeypatch):
    """A bug outside any file's migration (here, in discovery) is one line and exit 2, not 1."""
    script = (
        "import sys; from tf24migrate.run import discovery\n"
        "def broken(*a, **k): raise RuntimeError('a bug')\n"
        "discovery.iter_source_files = broken\n"
        "from tf24migrate.cli import session; session.iter_source_files = broken\n"
        "from tf24migrate.cli.command import main; sys.argv = ['tf24migrate', '--check', '.']; main()\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("tf24migrate: error: internal failure (RuntimeError: a bug")
