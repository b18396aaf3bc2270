"""mypy is clean over the tool and its rules, as configured in pyproject.toml (`[tool.mypy]`): the
rule API is typed in fact, and a handler that misuses `ctx` or a node fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # about 15 s from a cold mypy cache
def test_mypy_is_clean(tmp_path, monkeypatch):
    from mypy import api

    monkeypatch.chdir(ROOT)
    report, errors, status = api.run(["--cache-dir", str(tmp_path / "mypy-cache")])
    assert status == 0, report + errors
    assert "Success: no issues found" in report
