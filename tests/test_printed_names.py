"""Text output cannot be forged: file names and messages holding newlines or escape sequences
print as one line, escaped; diff headers quote such names as git does."""

from __future__ import annotations

import os

import pytest
from command_line import run_in_process
from test_cli import OLD

from tf24migrate.cli.output import finding_line, printable
from tf24migrate.model.findings import Finding, Severity
from tf24migrate.sources.diff import git_quoted, unified_diff

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file names")


def test_printable_escapes_control_characters_only():
    assert printable("a\nb\r\x1b[31m\x07\x7f\x9b\u2028 é\t") == "a\\nb\\r\\x1b[31m\\x07\\x7f\\x9b\\u2028 é\\t"
    assert printable("caf\udce9.py") == "caf\udce9.py"  # a name that is not UTF-8 keeps its byte


def test_a_message_quoting_source_text_prints_as_one_line():
    finding = Finding(
        "TF24101",
        "x",
        2,
        1,
        2,
        5,
        "`a\x1b]0;pwned\x07\nb.py:1:1: TF24999` is odd",
        Severity.ERROR,
        None,
        False,
        "m.py",
    )
    assert finding_line(finding, written=False) == (
        "m.py:2:1: TF24101 error `a\\x1b]0;pwned\\x07\\nb.py:1:1: TF24999` is odd"
    )


@posix_only
def test_a_file_name_holding_a_newline_or_an_escape_prints_as_one_line(tmp_path):
    (tmp_path / "a\nb.py").write_text(OLD)
    (tmp_path / "e\x1b[2Jx.py").write_text(OLD)
    (tmp_path / "s\ny.py").write_text("import tensorflow as tf\ns.experimental_run_v2(\n")
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "\x1b" not in result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "would change: ./a\\nb.py" in lines and "would change: ./e\\x1b[2Jx.py" in lines
    assert len(lines) == 6  # and the details of TF24101, once
    assert [line for line in lines if line.startswith("./s\\ny.py:2:22: TF24005 error ")]


@posix_only
def test_a_missing_path_named_with_a_newline_prints_as_one_line(tmp_path):
    result = run_in_process("--check", "gone\nx.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "tf24migrate: gone\\nx.py: no such file or folder\n"


def test_diff_headers_quote_names_as_git_does():
    assert git_quoted("a/x.py") == "a/x.py"
    assert git_quoted("a/été.py") == "a/été.py"
    assert git_quoted('a/a\nb\t"q"\\\x1b\x7f.py') == '"a/a\\nb\\t\\"q\\"\\\\\\033\\177.py"'
    diff = unified_diff("a\nb.py", "x = 1\n", "x = 2\n")
    assert diff.splitlines()[:2] == ['--- "a/a\\nb.py"', '+++ "b/a\\nb.py"']
