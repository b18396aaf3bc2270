"""Outcomes that must not pass in silence: a write that failed, an unreadable folder, which
configuration a run used."""

from __future__ import annotations

import errno
import json

import pytest
from test_cli import OLD
from typer.testing import CliRunner


def _invoke(args, cwd, monkeypatch):
    from tf24migrate.cli import command

    monkeypatch.chdir(cwd)
    return CliRunner().invoke(command._app(), [str(arg) for arg in args])


@pytest.fixture
def disk_full(monkeypatch):
    from tf24migrate.run import migrate_file

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(migrate_file, "write_source", full)


def test_a_failed_write_is_not_counted_as_fixed(tmp_path, monkeypatch, disk_full):
    (tmp_path / "train.py").write_text(OLD)
    result = _invoke(["--write", "train.py"], tmp_path, monkeypatch)
    assert result.exit_code == 2, result.output
    assert "train.py: error: cannot write: [Errno 28] No space left on device" in result.stderr
    assert "[fixed]" not in result.stdout
    assert "0 changed, 1 failed, 1 finding (0 fixed, 1 left to you)" in result.stderr
    assert (tmp_path / "train.py").read_text() == OLD


def test_a_failed_write_is_not_applied_in_json(tmp_path, monkeypatch, disk_full):
    (tmp_path / "train.py").write_text(OLD)
    result = _invoke(
        ["--write", "--output-format", "json", "--statistics", "train.py"], tmp_path, monkeypatch
    )
    assert result.exit_code == 2, result.output
    document = json.loads(result.stdout)
    assert [(f["status"], f["written"]) for f in document["files"]] == [("failed", False)]
    assert [(f["applied"], f["written"]) for f in document["findings"]] == [(False, False)]
    assert document["statistics"][0]["applied"] == 0


def _scandir_refusing(monkeypatch, name):
    import os

    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == name:
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_an_unreadable_folder_is_reported_and_fails_the_run(tmp_path, monkeypatch):
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "m.py").write_text(OLD)
    (tmp_path / "ok.py").write_text("x = 1\n")
    _scandir_refusing(monkeypatch, "locked")
    result = _invoke(["--check", "."], tmp_path, monkeypatch)
    assert "tf24migrate: ./locked: skipped: cannot read this folder (Permission denied)" in result.stderr
    assert result.exit_code == 2, result.output


@pytest.mark.skipif(
    not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() == 0,
    reason="root reads any folder",
)
def test_an_unreadable_folder_fails_the_run_through_the_command(tmp_path):
    from command_line import run_in_process

    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "m.py").write_text(OLD)
    (tmp_path / "locked").chmod(0)
    try:
        result = run_in_process("--check", ".", cwd=tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert result.returncode == 2
    assert "./locked: skipped: cannot read this folder (Permission denied)" in result.stderr


def test_the_run_says_which_config_it_used_for_each_path(tmp_path):
    from command_line import run_in_process

    for project in ("a", "b"):
        (tmp_path / project).mkdir()
        (tmp_path / project / "pyproject.toml").write_text("[tool.tf24migrate]\nignore = []\n")
        (tmp_path / project / "m.py").write_text(OLD)
    assert "; config a/pyproject.toml in " in run_in_process("--check", "a", cwd=tmp_path).stderr
    result = run_in_process("--check", "a", "b", cwd=tmp_path)
    assert "; 2 configs: a/pyproject.toml with target " in result.stderr
    assert ", b/pyproject.toml with target " in result.stderr
    assert "note:" not in result.stderr
    document = json.loads(run_in_process("--output-format", "json", "a", cwd=tmp_path).stdout)
    assert document["config"] == "a/pyproject.toml"
