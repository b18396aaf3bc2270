"""Notebook cells as IPython sees them: indented cells, `%%writefile x.py` cells, skipped cells' notes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from command_line import run_in_process
from test_notebooks import AddsTensorFlowImport, cell_sources, notebook

from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.cli.reporters.sarif import sarif_log
from tf24migrate.model.findings import Severity
from tf24migrate.model.notes import NOTES
from tf24migrate.sources.notebook import migrate_notebook
from tf24migrate.sources.notebook_cells import (
    CellCode,
    SkippedCell,
    classify,
    common_indent,
    writefile_target,
)

RULES = select_rules(None, None)
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
IMPORT = "import tensorflow as tf\n"
HINTS = "hints = tf.distribute.experimental.CollectiveHints()\n"
NEW_HINTS = HINTS.replace("CollectiveHints", "CommunicationOptions")


def migrate(*sources: str, rules=RULES, **options):
    return migrate_notebook(notebook(*sources), Settings(rules, **options), path="n.ipynb")


def markdown_notebook(*sources: str) -> str:
    text = json.loads(notebook(*sources))
    text["cells"][0] = {"cell_type": "markdown", "metadata": {}, "source": text["cells"][0]["source"]}
    return json.dumps(text, indent=1)


# ------------------------------------------------------------------ cells indented as a whole


@pytest.mark.parametrize(
    "source",
    [
        "    s.experimental_run_v2(f)\n    x = 1\n",
        "\n\n  s.experimental_run_v2(f)\n",  # IPython drops leading blank lines first
        "\ts.experimental_run_v2(f)\n\n\tif x:\n\t\ty = 2",  # tabs, a blank line, no final newline
        "    %matplotlib inline\n    !ls\n    s.experimental_run_v2(f)\n",  # IPython syntax too
        "  %%time\n  s.experimental_run_v2(f)\n",
    ],
)
def test_indented_cell_is_migrated_not_reported(source):
    result = migrate(source)
    assert [f.code for f in result.findings] == ["TF24101"]
    assert cell_sources(result.code) == [source.replace("experimental_run_v2", "run")]
    (finding,) = result.findings
    line = source.splitlines()[finding.line - 1]
    assert line[finding.column - 1 : finding.end_column - 1] == "s.experimental_run_v2"


def test_indented_cell_keeps_unchanged_lines_byte_for_byte():
    source = (
        "    # a comment   \n"
        "        \n"  # whitespace-only, longer than the indent
        "  \n"  # whitespace-only, shorter: IPython leaves it, so do we
        '    doc = """\n'
        "    kept\n"
        '    """\n'
        "    s.experimental_run_v2(f)\r\n"
    )
    result = migrate(source)
    assert cell_sources(result.code) == [source.replace("experimental_run_v2", "run")]
    assert not migrate(cell_sources(result.code)[0]).changed


def test_lines_a_rule_adds_to_an_indented_cell_are_indented():
    result = migrate("    x = helper(1)\n    y = 2\n", rules=[AddsTensorFlowImport()])
    assert cell_sources(result.code) == ["    import tensorflow as tf\n    x = tf.identity(1)\n    y = 2\n"]
    assert [(f.cell, f.line, f.column) for f in result.findings] == [(1, 1, 9)]


def test_indented_cell_resolves_names_from_other_cells():
    result = migrate(IMPORT, "  " + HINTS)
    assert cell_sources(result.code) == [IMPORT, "  " + NEW_HINTS]
    assert [(f.code, f.cell, f.line, f.column) for f in result.findings] == [("TF24104", 2, 1, 11)]


def test_declined_fix_in_indented_cell_stays_declined():
    first = migrate(IMPORT, "    " + HINTS)
    (finding,) = first.findings
    again = migrate(IMPORT, "    " + HINTS, declined=[finding])
    assert not again.changed
    assert [(f.line, f.column, f.applied) for f in again.findings] == [(1, 13, False)]


@pytest.mark.parametrize(
    "source",
    [
        "    s.experimental_run_v2(f)\n  x = 1\n",  # a line less indented: IPython does not run it
        "s = 1\n    s.experimental_run_v2(f)\n",  # the first line is not indented
    ],
)
def test_cell_indented_unevenly_is_still_a_syntax_error(source):
    result = migrate(source)
    assert [f.code for f in result.findings] == ["TF24001"]
    assert not result.changed


def test_common_indent_follows_the_first_code_line():
    assert common_indent(["\n", "  a\n", "    b\n", "\n", " \n"]) == "  "
    assert common_indent(["  a\n", " b\n"]) == ""
    assert common_indent(["\t\n", "\n"]) == ""


# ------------------------------------------------------------------ %%writefile x.py


def test_writefile_py_cell_is_migrated_as_its_own_module():
    cell = "%%writefile model.py\n" + IMPORT + HINTS
    result = migrate("x = 1\n", cell)
    assert cell_sources(result.code) == ["x = 1\n", "%%writefile model.py\n" + IMPORT + NEW_HINTS]
    assert [(f.code, f.cell, f.line, f.column) for f in result.findings] == [("TF24104", 2, 3, 9)]


def test_writefile_module_does_not_see_the_notebook_names_nor_lend_its_own():
    to_file = "%%writefile -a model.py\n" + HINTS
    result = migrate(IMPORT, to_file)
    assert not result.changed and not result.findings  # `tf` is not imported in model.py
    result = migrate("%%writefile model.py\n" + IMPORT, HINTS)
    assert not result.changed and not result.findings  # the notebook does not import model.py's `tf`


def test_lines_a_rule_adds_to_a_written_file_stay_below_the_magic():
    result = migrate("%%writefile 'my model.py'\nx = helper(1)\n", rules=[AddsTensorFlowImport()])
    assert cell_sources(result.code) == [
        "%%writefile 'my model.py'\nimport tensorflow as tf\nx = tf.identity(1)\n"
    ]


def test_indented_writefile_cell_is_dedented_like_the_others():
    cell = "  %%writefile model.py\n  " + IMPORT + "  " + HINTS
    result = migrate(cell)
    assert cell_sources(result.code) == ["  %%writefile model.py\n  " + IMPORT + "  " + NEW_HINTS]


@pytest.mark.parametrize(
    ("line", "target"),
    [
        ("%%writefile a.py", "a.py"),
        ("%%writefile -a a.py", "a.py"),
        ("%%writefile --append src/a.py", "src/a.py"),
        ('%%writefile "my a.py"', "my a.py"),
        ("%%writefile notes.txt", "notes.txt"),
        ("%%writefile", None),
        ("%%writefile 'a.py", None),
    ],
)
def test_writefile_target(line, target):
    assert writefile_target(line) == target


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("%%writefile a.py\nx = 1\n", CellCode),
        ("%%writefile a.txt\nx = 1\n", SkippedCell),
        ("%%writefile a.pyc\nx = 1\n", SkippedCell),
        ("%%bash\nls\n", SkippedCell),
        ("  %%time\n  x = 1\n", CellCode),
        (" \n\n", type(None)),
    ],
)
def test_classify(source, kind):
    assert type(classify(1, source)) is kind


# ------------------------------------------------------------------ notes for skipped cells


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("%%bash\npython -c 'strategy.experimental_run_v2(f)'\n", "cell 2 is a %%bash cell: not migrated"),
        (
            "%%html\n<p>tf.distribute.experimental.CollectiveHints</p>\n",
            "cell 2 is a %%html cell: not migrated",
        ),
        (
            "%%writefile notes.txt\ns.experimental_run_v2(f)\n",
            "cell 2 is a %%writefile cell writing notes.txt, not a .py file: not migrated",
        ),
    ],
)
def test_skipped_cell_that_names_the_old_api_gets_a_note(cell, reason):
    result = migrate(IMPORT, cell)
    assert not result.changed
    (note,) = result.findings
    assert (note.code, note.name, note.severity, note.cell) == (
        "TF24004",
        "notebook-cell-skipped",
        Severity.INFO,
        2,
    )
    assert note.message == reason


def test_cells_that_name_nothing_or_are_not_code_get_no_note():
    assert not migrate(IMPORT, "%%bash\nls -l\n", "", "  \n").findings
    text = markdown_notebook("strategy.experimental_run_v2 in %%bash\n", IMPORT)
    assert not migrate_notebook(text, Settings(RULES), path="n.ipynb").findings


def test_skipped_cell_note_through_the_command(tmp_path):
    (tmp_path / "n.ipynb").write_text(
        notebook(IMPORT, "%%bash\npython -c 'strategy.experimental_run_v2(f)'\n")
    )
    done = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--output-format", "github", "n.ipynb"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "title=TF24004::notebook-cell-skipped: cell 2 is a %25%25bash cell: not migrated" in done.stdout


# ------------------------------------------------------------------ the notes' table


def test_sarif_log_describes_the_notes_its_results_name(tmp_path):
    (tmp_path / "n.ipynb").write_text(
        notebook(
            IMPORT,
            "def f(:\n    s.experimental_run_v2(x)\n",
            "%%bash\npython -c 'strategy.experimental_run_v2(f)'\n",
        )
    )
    (tmp_path / "r.ipynb").write_text(notebook(HINTS, language="R"))
    done = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--output-format", "sarif", "."],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    log = json.loads(done.stdout)
    jsonschema.validate(log, SCHEMA)
    (run,) = log["runs"]
    descriptors = run["tool"]["driver"]["rules"]
    located = [(r["ruleId"], r["level"], descriptors[r["ruleIndex"]]["id"]) for r in run["results"]]
    assert located == [
        ("TF24001", "error", "TF24001"),
        ("TF24004", "note", "TF24004"),
        ("TF24002", "note", "TF24002"),
    ]
    assert descriptors[run["results"][0]["ruleIndex"]]["name"] == "notebook-cell-syntax-error"
    without_notes = sarif_log([], [rule.code for rule in RULES], "0")["runs"][0]["tool"]["driver"]["rules"]
    assert not {d["id"] for d in without_notes} & {note.code for note in NOTES}


@pytest.mark.parametrize("repeated", ["cells", "source"])
def test_a_notebook_with_a_repeated_key_is_refused_not_edited(tmp_path, repeated):
    first = '"import tensorflow as tf\\n", "s.experimental_run_v2(f)\\n"'
    second = '"my_own_code()\\n"'
    if repeated == "source":
        cells = f'[{{"cell_type": "code", "metadata": {{}}, "source": [{first}], "source": [{second}]}}]'
        text = f'{{"cells": {cells}, "metadata": {{}}, "nbformat": 4, "nbformat_minor": 5}}'
    else:
        cell = '{{"cell_type": "code", "metadata": {{}}, "source": [{}]}}'
        text = (
            f'{{"cells": [{cell.format(first)}], "cells": [{cell.format(second)}], '
            '"metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
        )
    path = tmp_path / "twice.ipynb"
    path.write_text(text)
    result = run_in_process("--write", "twice.ipynb", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert f"the key '{repeated}' appears twice in one JSON object" in result.stdout
    assert path.read_text() == text


@pytest.mark.parametrize("odd", ["\u2028", "\f", "\x1c"], ids=["U+2028", "form feed", "FS"])
def test_an_unchanged_line_holding_a_line_separator_stays_one_json_string(tmp_path, odd):
    lines = ["import tensorflow as tf\n", f"label = 'a{odd}b'\n", "s.experimental_run_v2(f)\n"]
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps(notebook, indent=1))
    result = run_in_process("--write", "odd.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(path.read_text())["cells"][0]["source"] == [lines[0], lines[1], "s.run(f)\n"]


def _guide_notebook() -> dict:
    markdown = [
        "# Training\n",
        "Each step calls `strategy.experimental_run_v2` on every replica;\n",
        "the old API.\n",
    ]
    code = ["import tensorflow as tf\n", "strategy.experimental_run_v2(step)\n"]
    return {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": markdown},
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": code},
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_markdown_cells_are_prose_for_the_prose_rule(tmp_path):
    path = tmp_path / "guide.ipynb"
    path.write_text(json.dumps(_guide_notebook(), indent=1))
    command = ["--select", "TF24801,TF24101", "guide.ipynb"]
    shown = run_in_process(*command, cwd=tmp_path)
    assert (
        "guide.ipynb:cell 1:2:18: TF24801 info [unsafe fix: --unsafe-fixes] `strategy.experimental_run_v2`"
        in (shown.stderr)
    )
    written = run_in_process(*command, "--unsafe-fixes", "--write", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    cells = json.loads(path.read_text())["cells"]
    assert cells[0]["source"][1] == "Each step calls `strategy.run` on every replica;\n"
    assert cells[1]["source"][1] == "strategy.run(step)\n"


def test_markdown_cells_are_not_read_without_the_prose_rule(tmp_path):
    notebook = _guide_notebook()
    notebook["cells"] = notebook["cells"][:1]
    path = tmp_path / "guide.ipynb"
    path.write_text(json.dumps(notebook, indent=1))
    result = run_in_process("--select", "all", "--unsafe-fixes", "--check", "guide.ipynb", cwd=tmp_path)
    assert "guide.ipynb:cell 1:2:18: TF24801" in result.stdout + result.stderr  # selected by `all`
    plain = run_in_process("--check", "guide.ipynb", cwd=tmp_path)
    assert plain.returncode == 0 and "TF24801" not in plain.stdout + plain.stderr


def test_a_plain_cell_keeps_its_source_once():
    """A notebook may have 100,000 cells: a cell with no indentation nor IPython syntax is its own
    code (not a copy, nor a tuple of its lines); an indented one keeps its lines, to indent again."""
    plain = classify(1, "x = 1\ny = 2\n")
    assert plain.masked.code is plain.source
    assert plain.original_lines == ()
    assert not hasattr(plain, "__dict__")  # slots
    indented = classify(2, "  x = 1\n  y = 2\n")
    assert indented.original_lines == ("  x = 1\n", "  y = 2\n")
    assert indented.restore("x = 1\nz = 3\n") == "  x = 1\n  z = 3\n"
