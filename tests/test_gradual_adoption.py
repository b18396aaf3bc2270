"""Adopting the tool bit by bit: `per-file-ignores` in pyproject.toml (as ruff's), `--add-noqa`
(as ruff's) and `--since REF` (pre-commit's `--from-ref`, from the merge base), through the command."""

from __future__ import annotations

import subprocess

import pytest
from command_line import run_in_process

CODE = (
    "import tensorflow as tf\n"
    "strategy.experimental_run_v2(f)\n"
    "m = tf.keras.utils.multi_gpu_model(model, gpus=2)\n"
)


def codes(output: str) -> list[tuple[str, str]]:
    """(path, code) of each finding line."""
    return [
        (line.split(":")[0], line.split(": ")[1].split(" ")[0])
        for line in output.splitlines()
        if ": TF24" in line and not line.startswith(" ")
    ]


def test_per_file_ignores_leave_rules_out_for_the_files_their_globs_match(tmp_path):
    for name in ("tests/a_test.py", "src/a.py", "src/b_test.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(CODE)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.tf24migrate]\n"
        'per-file-ignores = {"tests/*" = ["TF24101"], "*_test.py" = ["removed-keras-utils"], '
        '"!src/*" = ["TF242"]}\n'
    )
    result = run_in_process("--check", "src", "tests", cwd=tmp_path)
    assert sorted(codes(result.stdout)) == [
        ("src/a.py", "TF24101"),
        ("src/a.py", "TF24202"),
        ("src/b_test.py", "TF24101"),
    ]
    assert "would change: tests/a_test.py" not in result.stdout  # its fix is left out too
    # A source on stdin takes the entries of the name it is given.
    piped = run_in_process("--stdin-filename", "tests/x.py", "-", cwd=tmp_path, stdin=CODE)
    assert piped.stdout == CODE


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('["TF24101"]', "`per-file-ignores` must be a table of globs to rules"),
        ('{"tests/*" = ["TF29999"]}', "'tests/*': unknown rule selector 'TF29999'"),
        ('{"tests/*" = 3}', "must be a list of strings"),
    ],
)
def test_per_file_ignores_that_cannot_be_used_are_one_line_errors(tmp_path, value, message):
    (tmp_path / "pyproject.toml").write_text(f"[tool.tf24migrate]\nper-file-ignores = {value}\n")
    (tmp_path / "a.py").write_text(CODE)
    result = run_in_process("--check", "a.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("tf24migrate: error: ") and message in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_add_noqa_suppresses_each_finding_left_and_leaves_the_fixable_ones(tmp_path):
    source = (
        "import tensorflow as tf\n"
        "strategy.experimental_run_v2(f)\n"
        "m = tf.keras.utils.multi_gpu_model(model, gpus=2)  # noqa: E501\n"
        's = """\n'
        '%s""" % tf.keras.utils.multi_gpu_model(model, gpus=2)\n'
        "k = tf.keras.utils.multi_gpu_model(\n"
        "    model, gpus=2)\n"
    )
    (tmp_path / "a.py").write_text(source)
    result = run_in_process("--add-noqa", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "added 3 noqa codes in 1 file" in result.stderr
    assert (tmp_path / "a.py").read_text() == (
        "import tensorflow as tf\n"
        "strategy.experimental_run_v2(f)\n"  # fixable: --write's
        "m = tf.keras.utils.multi_gpu_model(model, gpus=2)  # noqa: E501, TF24202\n"  # one list
        's = """\n'
        '%s""" % tf.keras.utils.multi_gpu_model(model, gpus=2)  # noqa: TF24202\n'  # not in the string
        "k = tf.keras.utils.multi_gpu_model(  # noqa: TF24202\n"
        "    model, gpus=2)\n"
    )
    check = run_in_process("--check", ".", cwd=tmp_path)
    assert codes(check.stdout) == [("./a.py", "TF24101")]
    again = run_in_process("--add-noqa", ".", cwd=tmp_path)
    assert "added 0 noqa codes in 0 files" in again.stderr
    assert run_in_process("--add-noqa", "--write", ".", cwd=tmp_path).returncode == 2


def git(*args, cwd):
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def branch(tmp_path):
    """`feature` branched from `main`; `main` then changed a file of its own."""
    git("init", "-q", "-b", "main", ".", cwd=tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "old.py").write_text(CODE + "\n\n")
    (tmp_path / "pkg" / "main_only.py").write_text(CODE)
    git("add", "-A", cwd=tmp_path)
    git("commit", "-qm", "one", cwd=tmp_path)
    git("checkout", "-qb", "feature", cwd=tmp_path)
    (tmp_path / "pkg" / "old.py").write_text(CODE + "\nx = tf.keras.utils.multi_gpu_model(m, 2)\n")
    (tmp_path / "README.md").write_text("not a source\n")
    git("add", "-A", cwd=tmp_path)
    git("commit", "-qm", "two", cwd=tmp_path)
    git("checkout", "-q", "main", cwd=tmp_path)
    (tmp_path / "pkg" / "main_only.py").write_text(CODE + "n = 1\n")
    git("commit", "-qam", "three", cwd=tmp_path)
    git("checkout", "-q", "feature", cwd=tmp_path)
    (tmp_path / "pkg" / "untracked.py").write_text(CODE)
    return tmp_path


def test_since_takes_the_files_changed_since_the_merge_base(branch):
    result = run_in_process("--check", "--since", "main", cwd=branch)
    assert result.returncode == 1
    assert sorted({path for path, _ in codes(result.stdout)}) == ["pkg/old.py", "pkg/untracked.py"]
    assert "README.md" not in result.stderr  # not a source: left out without a word
    (branch / "docs").mkdir()
    nothing = run_in_process("--check", "--since", "main", "docs", cwd=branch)
    assert nothing.returncode == 0
    assert nothing.stderr == "tf24migrate: no file to migrate changed since the merge base with main\n"
    assert run_in_process("--check", "--since", "main", "nowhere", cwd=branch).returncode == 2


def test_only_changed_lines_reports_the_findings_on_the_lines_the_branch_changed(branch):
    result = run_in_process("--check", "--since", "main", "--only-changed-lines", "pkg", cwd=branch)
    assert codes(result.stdout) == [
        ("pkg/old.py", "TF24202"),  # line 5, added by the branch
        ("pkg/untracked.py", "TF24101"),  # a new file: every line
        ("pkg/untracked.py", "TF24202"),
    ]
    assert "pkg/old.py:5:" in result.stdout


def test_since_errors_are_one_line(branch, tmp_path_factory):
    unknown = run_in_process("--since", "nope", cwd=branch)
    assert unknown.returncode == 2
    assert unknown.stderr == (
        "tf24migrate: error: --since nope: git knows no commit by that name that shares history "
        "with HEAD (fetch it first?)\n"
    )
    outside = run_in_process("--since", "main", cwd=tmp_path_factory.mktemp("not-a-repository"))
    assert outside.returncode == 2
    assert outside.stderr == "tf24migrate: error: --since works in a git repository: this folder is in none\n"
    alone = run_in_process("--only-changed-lines", cwd=branch)
    assert alone.returncode == 2 and "needs --since REF" in alone.stderr
