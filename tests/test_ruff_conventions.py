"""Issue 49's conventions where the command now does as ruff does: `-V`, any code prefix as a
selector, `--no-respect-gitignore`, "did you mean" only for a near miss, `target-version` as a TOML
number refused with what to write, options that `--list-rules` and `--explain` would ignore."""

from __future__ import annotations

import pytest
from command_line import run_in_process

CODE = "import tensorflow as tf\nstrategy.experimental_run_v2(f)\n"


def test_dash_capital_v_shows_the_version(tmp_path):
    assert run_in_process("-V", cwd=tmp_path).stdout == run_in_process("--version", cwd=tmp_path).stdout != ""


@pytest.mark.parametrize("prefix", ["TF2", "TF", "T", "tf2"])
def test_any_code_prefix_selects(tmp_path, prefix):
    (tmp_path / "a.py").write_text(CODE)
    result = run_in_process("--check", "--select", prefix, "a.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "TF24101" in result.stdout


def test_no_respect_gitignore_and_its_key_are_no_ignore(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("ignored.py\n")
    (tmp_path / "ignored.py").write_text(CODE)
    assert run_in_process("--check", ".", cwd=tmp_path).returncode == 0
    assert run_in_process("--check", "--no-respect-gitignore", ".", cwd=tmp_path).returncode == 1
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\nrespect-gitignore = false\n")
    assert run_in_process("--check", ".", cwd=tmp_path).returncode == 1  # ruff's key


@pytest.mark.parametrize(
    ("option", "guess"), [("--bogus", None), ("--wirte", "--write"), ("--selct", "--select")]
)
def test_did_you_mean_only_for_a_near_miss(tmp_path, option, guess):
    result = run_in_process(option, cwd=tmp_path)
    assert result.returncode == 2
    if guess is None:
        assert "did you mean" not in result.stderr
    else:
        assert f"did you mean {guess}?" in result.stderr


def test_target_version_as_a_toml_number_says_to_quote_it(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\ntarget-version = 2.3\n")
    (tmp_path / "a.py").write_text(CODE)
    result = run_in_process("--check", "a.py", cwd=tmp_path)
    assert result.returncode == 2
    assert '`target-version` must be a string, "X.Y" in quotes (such as "2.3")' in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--list-rules", "--select", "TF241"], "--list-rules lists the rules and exits: --select does not"),
        (
            ["--explain", "TF24101", "--write"],
            "--explain shows a rule's documentation and exits: --write does not",
        ),
    ],
)
def test_options_list_rules_and_explain_would_ignore_are_errors(tmp_path, args, message):
    result = run_in_process(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"tf24migrate: error: {message}")
    assert run_in_process("--list-rules", "--output-format", "json", cwd=tmp_path).returncode == 0
