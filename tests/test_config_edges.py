"""pyproject.toml under torture: not UTF-8, unreadable, too deep, `tool` not a table, the other
spellings of the table, a config above the repository."""

from __future__ import annotations

import os

import pytest
from command_line import run_in_process
from test_cli import OLD


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(OLD)
    return tmp_path


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"[tool.tf24migrate]\nselect = ['TF24101'] # caf\xe9\n", "not UTF-8 text (byte "),
        (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n[tool.tf24migrate]\n", "nested too deep to read as TOML"),
        (b'tool = "x"\n# tf24migrate\n', "`tool` must be a table ([tool.tf24migrate]), not str"),
        (b"[tool.tf24migrate\n", "not valid TOML"),
    ],
    ids=["not UTF-8", "too deep", "tool not a table", "not TOML"],
)
def test_a_bad_pyproject_is_a_config_error_naming_the_file(project, content, said):
    (project / "pyproject.toml").write_bytes(content)
    result = run_in_process("--diff", "train.py", cwd=project)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "pyproject.toml: " in result.stderr and said in result.stderr, result.stderr


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_pyproject_is_a_config_error(project):
    config = project / "pyproject.toml"
    config.write_text("[tool.tf24migrate]\n")
    config.chmod(0)
    try:
        result = run_in_process("--diff", "train.py", cwd=project)
    finally:
        config.chmod(0o644)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "pyproject.toml: cannot read: Permission denied" in result.stderr


@pytest.mark.parametrize(
    "table",
    ['[tool."tf24migrate"]\nselect = ["TF24103"]\n', 'tool = {tf24migrate = {select = ["TF24103"]}}\n'],
    ids=["quoted key", "inline table"],
)
def test_every_toml_spelling_of_the_table_is_read(project, table):
    (project / "pyproject.toml").write_text(table)
    result = run_in_process("--diff", "train.py", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "TF24101" not in result.stderr  # only TF24103 selected


def test_a_pyproject_above_the_repository_is_not_applied(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.tf24migrate]\nselect = ["TF24103"]\n')
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "train.py").write_text(OLD)
    result = run_in_process("--diff", "train.py", cwd=repository)
    assert result.returncode == 1, result.stderr  # a change is due
    assert "TF24101" in result.stderr  # the default rules, not the outer select
