"""The command line through the real command: modes, exit codes, streams, JSON, selection."""

from __future__ import annotations

import json
import subprocess
import textwrap

import pytest
from command_line import run_in_process

OLD = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    strategy.experimental_run_v2(step_fn)
    """
)
NEW = OLD.replace("experimental_run_v2", "run")
ADVISORY = textwrap.dedent(
    """\
    class Ops:
        def reduce_implementation(self, reduce_op, value, destinations, experimental_hints):
            return value
    """
)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(OLD)
    (tmp_path / "clean.py").write_text("import tensorflow as tf\nprint(tf.__version__)\n")
    return tmp_path


def test_diff_is_the_default_and_writes_nothing(project):
    result = run_in_process("train.py", "clean.py", cwd=project)
    assert result.returncode == 1, result.stderr  # a change is due
    assert result.stdout.startswith("--- a/train.py\n+++ b/train.py\n")
    assert "-strategy.experimental_run_v2(step_fn)\n+strategy.run(step_fn)\n" in result.stdout
    assert "clean.py" not in result.stdout
    assert "train.py:4:1: TF24101 error [fixable]" in result.stderr
    assert "2 files scanned, 1 to change, 0 failed, 1 finding" in result.stderr
    assert (project / "train.py").read_text() == OLD


def test_diff_output_applies_with_git(project):
    diff = run_in_process("--diff", "train.py", cwd=project).stdout
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "apply", "-"], input=diff, text=True, cwd=project, check=True)
    assert (project / "train.py").read_text() == NEW


def test_write_applies_in_place_and_exits_zero(project):
    result = run_in_process("--write", ".", cwd=project)
    assert result.returncode == 0, result.stderr
    assert (project / "train.py").read_text() == NEW
    assert "train.py:4:1: TF24101 error [fixed]" in result.stdout
    assert run_in_process("--check", ".", cwd=project).returncode == 0


def test_check_lists_files_and_exits_one(project):
    result = run_in_process("--check", ".", cwd=project)
    assert result.returncode == 1
    assert "would change: ./train.py" in result.stdout
    assert (project / "train.py").read_text() == OLD


def test_unfixed_error_exits_one(tmp_path):
    (tmp_path / "ops.py").write_text(ADVISORY)
    result = run_in_process("ops.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "ops.py:2:69: TF24109 " in result.stderr


def test_modes_exclude_each_other(project):
    result = run_in_process("--write", "--check", ".", cwd=project)
    assert result.returncode == 2
    assert "exclude each other" in result.stderr


def test_missing_path_is_named(project):
    result = run_in_process("train.py", "nowhere.py", cwd=project)
    assert result.returncode == 2
    assert "nowhere.py: no such file or folder" in result.stderr


def test_unparsable_file_fails_but_others_are_processed(project):
    (project / "broken.py").write_text("def f(:\n    strategy.experimental_run_v2(x)\n")
    result = run_in_process("--write", ".", cwd=project)
    assert result.returncode == 2
    assert "broken.py:1:7: TF24005 error cannot parse" in result.stdout
    assert (project / "train.py").read_text() == NEW
    assert (project / "broken.py").read_text().startswith("def f(:")


def test_json_document(project):
    result = run_in_process("--output-format", "json", ".", cwd=project)
    document = json.loads(result.stdout)  # stdout holds the document and nothing else
    assert document["tf24migrate"]
    assert document["summary"] == {"files_scanned": 2, "files_changed": 1, "files_failed": 0, "findings": 1}
    assert document["files"] == [
        {
            "path": "./train.py",
            "status": "changed",
            "error": None,
            "written": False,
            "diff": document["files"][0]["diff"],
        }
    ]
    assert "+strategy.run(step_fn)" in document["files"][0]["diff"]
    assert document["findings"] == [
        {
            "path": "./train.py",
            "line": 4,
            "column": 1,
            "end_line": 4,
            "end_column": 29,
            "code": "TF24101",
            "name": "experimental-run-v2",
            "severity": "error",
            "message": "`experimental_run_v2` was removed in TF 2.4: call `run` (same arguments).",
            "fix": "safe",
            "applied": True,
            "written": False,
            "new_since": "2.2",
            "old_removed": "2.4",
            "changed_in": None,
            "evidence": None,
            "details": "TensorFlow versions: new spelling since 2.2; old spelling stops working in 2.4.",
        }
    ]
    assert document["target"]["version"] == "2.4"


def test_json_with_write_reports_failures(project):
    (project / "broken.py").write_text("x = (\nstrategy.experimental_run_v2\n")
    result = run_in_process("--write", "--output-format", "json", ".", cwd=project)
    document = json.loads(result.stdout)
    assert result.returncode == 2
    statuses = {f["path"]: (f["status"], bool(f["error"])) for f in document["files"]}
    assert statuses == {"./broken.py": ("failed", True), "./train.py": ("changed", False)}
    assert "diff" not in document["files"][0]


def test_select_and_ignore(project):
    assert "TF24101" not in run_in_process("--ignore", "TF24101", "train.py", cwd=project).stderr
    assert "TF24101" not in run_in_process("--select", "TF242", "train.py", cwd=project).stderr
    assert "TF24101" in run_in_process("--select", "experimental-run-v2", "train.py", cwd=project).stderr
    assert "TF24101" in run_in_process("--select", "TF241", "train.py", cwd=project).stderr
    result = run_in_process("--select", "TF249", "train.py", cwd=project)
    assert result.returncode == 2
    assert "unknown rule selector 'TF249'" in result.stderr


def test_list_rules_and_explain():
    listing = run_in_process("--list-rules").stdout
    assert "TF24101  experimental-run-v2" in listing
    assert "TF24109  hints-parameter-override" in listing
    explained = run_in_process("--explain", "experimental-run-v2")
    assert explained.returncode == 0
    assert explained.stdout.startswith("TF24101 experimental-run-v2\n")
    assert "Strategy.run" in explained.stdout
    assert run_in_process("--explain", "nope").returncode == 2


def test_version():
    from tf24migrate import __version__

    assert run_in_process("--version").stdout == f"tf24migrate {__version__}\n"


def test_no_color_when_not_a_terminal(project):
    assert "\x1b[" not in run_in_process("train.py", cwd=project).stdout
    assert "\x1b[" in run_in_process("--color", "train.py", cwd=project).stdout


PARAMETER_SERVER = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
    """
)


def test_unsafe_fixes_are_shown_and_applied_only_when_asked(tmp_path):
    target = tmp_path / "ps.py"
    target.write_text(PARAMETER_SERVER)
    shown = run_in_process("--write", "ps.py", cwd=tmp_path)
    assert target.read_text() == PARAMETER_SERVER
    assert "ps.py:3:12: TF24108 error [unsafe fix: --unsafe-fixes]" in shown.stdout
    assert "tf.compat.v1.distribute.experimental.ParameterServerStrategy(resolver)" in shown.stdout
    applied = run_in_process("--write", "--unsafe-fixes", "ps.py", cwd=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "ps.py:3:12: TF24108 error [fixed]" in applied.stdout
    assert target.read_text() == PARAMETER_SERVER.replace(
        "tf.distribute.experimental.ParameterServerStrategy(resolver)",
        # the longer name no longer fits in 79 columns: the call is wrapped
        "tf.compat.v1.distribute.experimental.ParameterServerStrategy(\n    resolver\n)",
    )


def test_exit_zero_when_something_is_due_but_not_when_a_file_failed(project):
    due = run_in_process("--check", "--exit-zero", ".", cwd=project)
    assert due.returncode == 0, due.stderr
    assert "would change: ./train.py" in due.stdout
    (project / "ops.py").write_text(ADVISORY)
    assert run_in_process("--exit-zero", "ops.py", cwd=project).returncode == 0  # an unfixed error finding
    (project / "broken.py").write_text("def f(:\n    s.experimental_run_v2(x)\n")
    assert run_in_process("--check", "--exit-zero", ".", cwd=project).returncode == 2
    assert run_in_process("--exit-zero", "--select", "nope", ".", cwd=project).returncode == 2


def test_exit_non_zero_on_fix(project):
    fixed = run_in_process("--write", "--exit-non-zero-on-fix", ".", cwd=project)
    assert fixed.returncode == 1, fixed.stderr
    assert (project / "train.py").read_text() == NEW
    again = run_in_process("--write", "--exit-non-zero-on-fix", ".", cwd=project)
    assert again.returncode == 0, again.stderr  # nothing left to fix
    both = run_in_process("--exit-zero", "--exit-non-zero-on-fix", ".", cwd=project)
    assert both.returncode == 2
    assert "exclude each other" in both.stderr


def test_json_says_what_was_written(project):
    (project / "ops.py").write_text(ADVISORY)
    checked = json.loads(run_in_process("--check", "--output-format", "json", ".", cwd=project).stdout)
    assert {f["path"]: f["written"] for f in checked["files"]} == {"./ops.py": False, "./train.py": False}
    assert [(f["code"], f["applied"], f["written"]) for f in checked["findings"]] == [
        ("TF24109", False, False),
        ("TF24101", True, False),
    ]
    written = json.loads(run_in_process("--write", "--output-format", "json", ".", cwd=project).stdout)
    assert {f["path"]: f["written"] for f in written["files"]} == {"./ops.py": False, "./train.py": True}
    assert [(f["code"], f["applied"], f["written"]) for f in written["findings"]] == [
        ("TF24109", False, False),
        ("TF24101", True, True),
    ]


def test_json_statistics(project):
    (project / "ops.py").write_text(ADVISORY)
    result = run_in_process("--statistics", "--output-format", "json", ".", cwd=project)
    document = json.loads(result.stdout)
    assert document["statistics"] == [
        {"code": "TF24101", "name": "experimental-run-v2", "applied": 1, "written": 0, "reported": 0},
        {"code": "TF24109", "name": "hints-parameter-override", "applied": 0, "written": 0, "reported": 1},
    ]
    assert "statistics" not in json.loads(run_in_process("--output-format", "json", ".", cwd=project).stdout)


def test_list_rules_as_json():
    result = run_in_process("--list-rules", "--output-format", "json")
    assert result.returncode == 0, result.stderr
    catalogue = json.loads(result.stdout)
    first = next(rule for rule in catalogue if rule["code"] == "TF24101")
    assert first == {
        "code": "TF24101",
        "name": "experimental-run-v2",
        "fix": "safe",
        "default": True,
        "severity": "error",
        "new_since": "2.2",
        "old_removed": "2.4",
        "summary": first["summary"],
    }
    assert "experimental_run_v2" in first["summary"]
    assert len(catalogue) == len({rule["code"] for rule in catalogue}) > 20


def test_a_missing_path_among_good_ones_is_named_and_the_rest_processed(project):
    result = run_in_process("--write", "train.py", "missing.py", cwd=project)
    assert result.returncode == 2
    assert "tf24migrate: missing.py: no such file or folder" in result.stderr
    assert (project / "train.py").read_text() == NEW
    (project / "list.txt").write_text("clean.py\ngone/also.py\n")
    listed = run_in_process("--check", "--files-from", "list.txt", cwd=project)
    assert listed.returncode == 0  # a listed path that does not exist is a note (a deleted file)
    assert "tf24migrate: note: gone/also.py: listed by --files-from, does not exist" in listed.stderr
    assert "1 file scanned" in listed.stderr
