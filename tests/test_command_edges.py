"""Command-line edges under torture: `-j 40` under a low open-file limit, names that are not
UTF-8 (in SARIF, in --files-from), names with leading spaces."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from command_line import run_in_process
from test_cli import OLD

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file names and limits")


@pytest.mark.slow  # -j 40 under ulimit
@posix_only
def test_many_jobs_under_a_low_open_file_limit_neither_fail_nor_hang(tmp_path):
    for n in range(100):
        (tmp_path / f"m{n:03d}.py").write_text(OLD)
    result = subprocess.run(
        ["sh", "-c", f"ulimit -n 64 && exec {sys.executable} -m tf24migrate --check -j 40 ."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Too many open files" not in result.stderr and "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr
    assert "100 files scanned, 100 to change, 0 failed" in result.stderr


@posix_only
def test_sarif_names_a_file_whose_name_is_not_utf8(tmp_path):
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text(OLD)
    result = run_in_process("--output-format", "sarif", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # a change is due
    assert '"uri": "caf%E9.py"' in result.stdout


@posix_only
def test_files_from_takes_names_as_bytes_and_keeps_their_spaces(tmp_path):
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text(OLD)
    (tmp_path / " lead.py").write_text(OLD)
    (tmp_path / "list.txt").write_bytes(b"caf\xe9.py\r\n lead.py\n\n")
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--check", "--files-from", "list.txt"],
        cwd=tmp_path,
        capture_output=True,
    )
    assert result.returncode == 1, result.stderr
    assert b"2 files scanned, 2 to change, 0 failed" in result.stderr
    assert b"would change: caf\xe9.py\n" in result.stdout
    assert b"would change:  lead.py\n" in result.stdout
