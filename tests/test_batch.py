"""Runs over many files: parallel equals serial, stdin mode, interactive review, statistics, progress."""

from __future__ import annotations

import io
import json
import re

import pytest
from command_line import run_in_process
from test_cli import ADVISORY, NEW, OLD

from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.cli.progress import ProgressBar
from tf24migrate.model.findings import Status
from tf24migrate.run.migrate import migrate_files

KERAS = "model.compile(optimizer='sgd', experimental_steps_per_execution=4)\n"


def many(tmp_path, count=40):
    for n in range(count):
        folder = tmp_path / f"pkg{n % 3}"
        folder.mkdir(exist_ok=True)
        body = [OLD, KERAS, "x = 1\n", "def f(:\n    s.experimental_run_v2(x)\n", ADVISORY][n % 5]
        (folder / f"m{n:02d}.py").write_text(body)
    return tmp_path


def test_parallel_and_serial_runs_print_the_same_in_sorted_order(tmp_path):
    many(tmp_path)
    serial = run_in_process("-j", "1", ".", cwd=tmp_path)
    parallel = run_in_process("-j", "2", ".", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 2
    assert serial.stdout == parallel.stdout
    drop_time = lambda text: re.sub(r" in [0-9.]+s\n", "\n", text)  # noqa: E731
    assert drop_time(serial.stderr) == drop_time(parallel.stderr)
    diffed = re.findall(r"^--- a/(.*)$", parallel.stdout, flags=re.MULTILINE)
    assert len(diffed) == 16 and diffed == sorted(diffed)


def test_parallel_library_results_equal_serial_ones_and_writes_happen_once(tmp_path):
    many(tmp_path)
    files = sorted(str(p) for p in tmp_path.rglob("*.py"))
    rules = select_rules()
    serial = list(migrate_files(files, Settings(rules), jobs=1))
    parallel = list(migrate_files(files, Settings(rules), jobs=2))
    assert serial == parallel
    written = list(migrate_files(files, Settings(rules), jobs=2, write=True))
    assert sum(r.written for r in written) == sum(r.status is Status.CHANGED for r in serial) == 16
    assert all(r.status is not Status.CHANGED for r in migrate_files(files, Settings(rules), jobs=2))


def test_stdin_to_stdout_keeps_the_encoding_and_line_endings(tmp_path):
    source = "# -*- coding: latin-1 -*-\r\nname = 'été'\r\n" + OLD.replace("\n", "\r\n")
    result = run_bytes(["-"], source.encode("latin-1"), tmp_path)
    assert result.returncode == 0
    assert result.stdout == source.replace("experimental_run_v2", "run").encode("latin-1")
    assert b"<stdin>:6:1: TF24101 error [fixed]" in result.stderr
    named = run_bytes(["--stdin-filename", "src/train.py", "-"], OLD.encode(), tmp_path)
    assert b"src/train.py:4:1: TF24101" in named.stderr


def test_stdin_that_cannot_be_migrated_comes_back_unchanged(tmp_path):
    broken = b"def f(:\n    strategy.experimental_run_v2(x)\n"
    result = run_bytes(["-"], broken, tmp_path)
    assert result.returncode == 2
    assert result.stdout == broken
    assert b"<stdin>:1:7: TF24005 error cannot parse" in result.stderr


def test_stdin_check_prints_nothing_on_stdout(tmp_path):
    result = run_bytes(["--check", "-"], OLD.encode(), tmp_path)
    assert (result.returncode, result.stdout) == (1, b"")
    assert b"would change: <stdin>" in result.stderr


def test_stdin_diff_prints_a_diff_naming_the_source(tmp_path):
    result = run_bytes(["--diff", "--stdin-filename", "src/train.py", "-"], OLD.encode(), tmp_path)
    assert result.returncode == 1, result.stderr  # a change is due
    assert result.stdout.decode().startswith("--- a/src/train.py\n+++ b/src/train.py\n")
    assert "-strategy.experimental_run_v2(step_fn)\n+strategy.run(step_fn)\n" in result.stdout.decode()
    assert b"src/train.py:4:1: TF24101 error [fixable]" in result.stderr
    unnamed = run_bytes(["--diff", "-"], OLD.encode(), tmp_path)
    assert unnamed.stdout.decode().startswith("--- a/<stdin>\n+++ b/<stdin>\n")
    assert run_bytes(["-"], OLD.encode(), tmp_path).stdout == NEW.encode()  # editors rely on it


def test_stdin_json_carries_the_migrated_code(tmp_path):
    document = json.loads(run_bytes(["--output-format", "json", "-"], OLD.encode(), tmp_path).stdout)
    (entry,) = document["files"]
    assert (entry["path"], entry["status"], entry["code"]) == ("<stdin>", "changed", NEW)
    assert [(f["code"], f["applied"], f["written"]) for f in document["findings"]] == [
        ("TF24101", True, False)
    ]
    clean = "import tensorflow as tf\n"
    unchanged = json.loads(run_bytes(["--output-format", "json", "-"], clean.encode(), tmp_path).stdout)
    assert [(f["status"], f["code"]) for f in unchanged["files"]] == [("unchanged", clean)]


def run_bytes(args, data, cwd):
    return run_in_process(*args, stdin=data, cwd=cwd, text=False)


def test_interactive_writes_only_accepted_changes(tmp_path):
    for name in ("a.py", "b.py", "c.py", "d.py"):
        (tmp_path / name).write_text(OLD)
    result = run_in_process("--interactive", ".", cwd=tmp_path, stdin="y\nn\nq\n")
    assert result.returncode == 1, result.stderr  # the skipped files keep an error finding each
    assert result.stdout.count("Apply this change to ./") == 3  # a, b, c; quit before d
    assert "+strategy.run(step_fn)" in result.stdout
    contents = [(tmp_path / n).read_text() for n in ("a.py", "b.py", "c.py", "d.py")]
    assert contents == [NEW, OLD, OLD, OLD]
    assert "1 changed" in result.stderr
    assert "3 findings (1 fixed, 2 left to you)" in result.stderr


def test_interactive_accept_all_and_help(tmp_path):
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(OLD)
    result = run_in_process("-i", ".", cwd=tmp_path, stdin="?\nn\na\n")
    assert "a - write this change and all the following ones" in result.stdout
    assert result.stdout.count("Apply this change to ./") == 3  # asked twice about a.py, once about b.py
    assert [(tmp_path / n).read_text() for n in ("a.py", "b.py", "c.py")] == [OLD, NEW, NEW]


def test_interactive_refuses_what_it_cannot_ask_about(tmp_path):
    (tmp_path / "a.py").write_text(OLD)
    for args in (["-i", "--output-format", "json", "a.py"], ["-i", "-"], ["-i", "--check", "a.py"]):
        result = run_in_process(*args, cwd=tmp_path, stdin="y\n")
        assert result.returncode == 2 and "tf24migrate: error: " in result.stderr, args
    assert (tmp_path / "a.py").read_text() == OLD


def test_interactive_end_of_input_is_quit(tmp_path):
    (tmp_path / "a.py").write_text(OLD)
    result = run_in_process("-i", "a.py", cwd=tmp_path, stdin="")
    assert (tmp_path / "a.py").read_text() == OLD
    assert "0 changed" in result.stderr


def test_statistics_count_fixed_and_reported_sites_per_rule(tmp_path):
    many(tmp_path, 10)
    result = run_in_process("--check", "--statistics", ".", cwd=tmp_path)
    lines = [line for line in result.stdout.splitlines() if line.startswith("TF24")]
    assert lines == [
        "TF24005  syntax-error              0 fixable  2 reported",  # the 2 files that do not parse
        "TF24101  experimental-run-v2       2 fixable  0 reported",
        "TF24109  hints-parameter-override  0 fixable  2 reported",
        "TF24201  steps-per-execution       2 fixable  0 reported",
    ]
    assert ": TF24101 " not in result.stdout  # statistics instead of each finding
    as_json = run_in_process("--check", "--statistics", "--output-format", "json", ".", cwd=tmp_path)
    assert json.loads(as_json.stdout)["summary"]["findings"] == 8
    assert "TF24109  hints-parameter-override  0 fixable  2 reported" in as_json.stderr  # and in the document
    assert {s["code"]: s["reported"] for s in json.loads(as_json.stdout)["statistics"]}["TF24109"] == 2


def test_summary_line_has_the_time_and_no_progress_bar_off_a_terminal(tmp_path):
    many(tmp_path, 10)
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert re.search(r"10 files scanned, 4 to change, 2 failed, 8 findings .* in [0-9.]+s\n$", result.stderr)
    assert "\r" not in result.stderr
    assert run_in_process("--check", "--quiet", ".", cwd=tmp_path).stderr.count("tf24migrate:") == 0


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_shows_done_total_and_rate_and_wipes_itself():
    stream = Terminal()
    bar = ProgressBar(4, stream, enabled=True, delay=0)
    for _ in range(4):
        bar.advance()
    assert re.search(r"\r\[#{30}\] 4/4 files  [0-9,]+ files/s", stream.getvalue())
    bar.clear()
    assert stream.getvalue().endswith("\r\x1b[K")
    silent = Terminal()
    ProgressBar(4, silent, enabled=False, delay=0).advance()
    assert silent.getvalue() == ""


TWO_FIXES = (
    "import tensorflow as tf\n"
    "strategy.experimental_run_v2(step_fn)\n"
    'model.compile(optimizer="sgd", experimental_steps_per_execution=4)\n'
    "hints = tf.distribute.experimental.CollectiveHints()\n"
)


@pytest.mark.parametrize(
    ("answers", "expected", "fixed"),
    [
        ("y\nn\ny\n", ["strategy.run(", "experimental_steps_per_execution=4", "CommunicationOptions()"], 2),
        ("n\ny\nq\n", ["experimental_run_v2(", "steps_per_execution=4", "CollectiveHints()"], 1),
        ("n\nn\nn\n", ["experimental_run_v2(", "experimental_steps_per_execution=4", "CollectiveHints()"], 0),
        ("n\na\n", ["experimental_run_v2(", "steps_per_execution=4", "CommunicationOptions()"], 2),
    ],
)
def test_interactive_asks_about_each_fix_of_a_file(tmp_path, answers, expected, fixed):
    (tmp_path / "a.py").write_text(TWO_FIXES)
    result = run_in_process("-i", "a.py", cwd=tmp_path, stdin=answers)
    asked = [line for line in result.stdout.splitlines() if "Apply this change to a.py" in line]
    wanted = ["(TF24101, line 2)", "(TF24201, line 3)", "(TF24104, line 4)"]
    assert [w for w in wanted if any(w in line for line in asked)] == wanted[: len(asked)]
    code = (tmp_path / "a.py").read_text()
    assert all(piece in code for piece in expected), code
    if fixed == 0:
        assert code == TWO_FIXES
    assert f"3 findings ({fixed} fixed, {3 - fixed} left to you)" in result.stderr
    # each question shows the change of that fix alone
    assert result.stdout.count("+strategy.run(step_fn)") == 1


def test_interactive_help_says_it_asks_per_change(tmp_path):
    import os
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "400", "TERM": "dumb"},
    )
    help_text = " ".join(result.stdout.split())
    assert "Show each change and ask whether to apply it (y/n/a/q)" in help_text
    assert "each file's change" not in help_text
