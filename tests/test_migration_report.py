"""`--output-file` (ruff's `-o`) and the migration report (`--report FILE`, Markdown or JSON), through
the command: the report lists each change with its rules and lines, and the findings left, after
`--write` as in a preview."""

from __future__ import annotations

import json

import pytest
from command_line import run_in_process

CODE = (
    "import tensorflow as tf\n"
    "\n"
    "strategy.experimental_run_v2(step_fn)\n"
    "parallel = tf.keras.utils.multi_gpu_model(model, gpus=2)\n"
)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(CODE)
    (tmp_path / "clean.py").write_text("x = 1\n")
    return tmp_path


def test_output_file_takes_what_stdout_would_carry(project):
    shown = run_in_process("--output-format", "json", ".", cwd=project)
    saved = run_in_process("--output-format", "json", "-o", "out.json", ".", cwd=project)
    assert saved.returncode == shown.returncode == 1
    assert saved.stdout == ""
    assert json.loads((project / "out.json").read_text())["findings"] == json.loads(shown.stdout)["findings"]
    assert "2 files scanned" in saved.stderr  # the summary stays on stderr
    diff = run_in_process("--output-file", "changes.diff", ".", cwd=project)
    assert (project / "changes.diff").read_text().startswith("--- a/train.py\n+++ b/train.py\n")
    assert diff.stdout == ""
    bad = run_in_process("-o", "missing/out.txt", ".", cwd=project)
    assert bad.returncode == 2
    assert bad.stderr.startswith("tf24migrate: error: --output-file missing/out.txt: cannot write")


def test_json_report_after_write_has_each_change_and_what_is_left(project):
    result = run_in_process("--write", "--report", "report.json", ".", cwd=project)
    assert result.returncode == 1  # TF24202 is left
    assert "strategy.run(step_fn)" in (project / "train.py").read_text()
    report = json.loads((project / "report.json").read_text())
    assert report["written"] is True
    assert report["summary"]["fixed"] == 1 and report["summary"]["left"] == 1
    (entry,) = report["files"]  # clean.py: nothing to say
    assert entry["path"] == "./train.py" and entry["written"] is True
    assert entry["changes"] == [
        {
            "line": 3,
            "end_line": 3,
            "rules": [{"code": "TF24101", "name": "experimental-run-v2"}],
            "before": "strategy.experimental_run_v2(step_fn)\n",
            "after": "strategy.run(step_fn)\n",
        }
    ]
    ((left),) = entry["left"]
    assert (left["code"], left["line"], left["column"]) == ("TF24202", 4, 12)


def test_markdown_report_of_a_preview(project):
    result = run_in_process("--report", "report.md", ".", cwd=project)
    assert result.returncode == 1
    assert (project / "train.py").read_text() == CODE  # a preview writes nothing but the report
    text = (project / "report.md").read_text()
    assert text.startswith("# tf24migrate migration report\n")
    assert "changes due (nothing written)" in text
    assert "## ./train.py\n" in text
    assert (
        "- line 3, TF24101 experimental-run-v2:\n\n```diff\n-strategy.experimental_run_v2(step_fn)\n"
        "+strategy.run(step_fn)\n```\n"
    ) in text
    assert "- line 4, column 12: TF24202 error: `tf.keras.utils.multi_gpu_model` was removed" in text
    assert "clean.py" not in text


def test_report_needs_a_known_extension(project):
    result = run_in_process("--report", "report.txt", ".", cwd=project)
    assert result.returncode == 2
    assert result.stderr == (
        "tf24migrate: error: --report report.txt: name a .md (Markdown) or .json file: the extension says "
        "the format\n"
    )
