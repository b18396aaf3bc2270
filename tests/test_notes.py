"""The notes (TF24001 notebook-cell-syntax-error, TF24002 notebook-not-python, TF24003 tf1-file,
TF24004 notebook-cell-skipped, TF24005 syntax-error, TF24006 unknown-suppression) through the real
command: known to every output format, hidden by --ignore, refused by --select."""

from __future__ import annotations

import json

import pytest
from command_line import run_in_process
from test_notebooks import notebook
from test_output_formats import _validate

from tf24migrate.model.notes import NOTES

TF1 = "import tensorflow as tf\nsess = tf.Session()\nx = tf.placeholder(tf.float32)\nstrategy.experimental_run_v2(f)\n"


@pytest.fixture
def project(tmp_path):
    (tmp_path / "broken.ipynb").write_text(
        notebook(
            "import tensorflow as tf\n",
            "def f(:\n    tf.distribute.experimental_run_v2(f)\n",
            "%%bash\npython -c 'strategy.experimental_run_v2(f)'\n",
        )
    )
    (tmp_path / "r.ipynb").write_text(notebook("library(tensorflow)\n", language="R"))
    (tmp_path / "legacy.py").write_text(TF1)
    return tmp_path


@pytest.fixture
def every_note(project):
    """The project, with a file that does not parse and a suppression comment naming no rule."""
    (project / "broken.py").write_text("def f(:\n    s.experimental_run_v2(x)\n")
    (project / "typo.py").write_text(
        "import tensorflow as tf\ns.experimental_run_v2(f)  # tf24migrate: ignore[TF24999]\n"
    )
    return project


def test_sarif_describes_every_note(every_note):
    result = run_in_process("--output-format", "sarif", ".", cwd=every_note)
    assert result.returncode == 2, result.stderr  # broken.py failed
    log = json.loads(result.stdout)
    _validate(log)
    (sarif_run,) = log["runs"]
    descriptors = sarif_run["tool"]["driver"]["rules"]
    by_id = {d["id"]: d for d in descriptors}
    for note in NOTES:
        assert by_id[note.code]["name"] == note.name
        assert by_id[note.code]["fullDescription"]["text"] == note.description
    results = {(r["ruleId"], r["level"]) for r in sarif_run["results"]}
    assert results == {
        ("TF24001", "error"),
        ("TF24002", "note"),
        ("TF24003", "note"),
        ("TF24004", "note"),
        ("TF24005", "error"),
        ("TF24006", "warning"),
        ("TF24101", "error"),
    }
    for item in sarif_run["results"]:
        assert descriptors[item["ruleIndex"]]["id"] == item["ruleId"]


@pytest.mark.parametrize("output_format", ["text", "json", "github"])
def test_every_format_reports_the_notes(every_note, output_format):
    result = run_in_process("--check", "--output-format", output_format, ".", cwd=every_note)
    assert result.returncode == 2, result.stderr
    for note in NOTES:
        assert note.code in result.stdout


def test_ignore_hides_a_note(project):
    result = run_in_process(
        "--check", "--ignore", "TF24001,tf1-file", "--output-format", "json", ".", cwd=project
    )
    assert result.returncode == 0, result.stderr  # the error note is hidden: nothing is due
    assert [f["code"] for f in json.loads(result.stdout)["findings"]] == ["TF24004", "TF24002"]


def test_a_note_cannot_be_selected(project):
    result = run_in_process("--select", "TF24001", ".", cwd=project)
    assert result.returncode == 2
    assert "'TF24001' names a note, not a rule" in result.stderr
    assert "--ignore TF24001" in result.stderr
