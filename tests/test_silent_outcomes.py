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
    from tf24migrate.run import file

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(file, "write_source", full)


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
