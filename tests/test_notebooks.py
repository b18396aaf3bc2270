"""Jupyter notebooks: cells migrated as one module, IPython syntax and the JSON layout left alone.

The fixtures in `data/notebooks/` are `<name>.ipynb` (input) and `<name>.expected.ipynb` (output):
`train` is in nbformat's own layout (indent 1, sorted keys, raw UTF-8, sources as lists of lines)
with magics, help, shell escapes, a broken cell, a `%%bash` cell, a `%%writefile helper.py` cell,
markdown, raw cells and outputs naming the old API; `colab` is in Colab's (indent 2, keys unsorted, `\\u` escapes, sources
as strings, no final newline) with a `from` import in one cell used in the next.
"""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import libcst as cst
import pytest
from command_line import run_in_process

from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.errors import SourceSyntaxError
from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import Rule
from tf24migrate.sources import notebook as notebooks
from tf24migrate.sources.ipython_syntax import is_python_cell, mask, unmask
from tf24migrate.sources.notebook import migrate_notebook

DATA = Path(__file__).resolve().parent / "data" / "notebooks"
FIXTURES = sorted(p.name[: -len(".expected.ipynb")] for p in DATA.glob("*.expected.ipynb"))
RULES = select_rules(None, None)


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def migrate(text: str, path: str = "train.ipynb"):
    return migrate_notebook(text, Settings(RULES), path=path)


def notebook(*sources: str, language: str = "python") -> str:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": s} for s in sources]
    metadata = {"kernelspec": {"language": language, "name": "k"}}
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def cell_sources(text: str) -> list[str]:
    return [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in json.loads(text)["cells"]
    ]


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture(name):
    before, expected = read(f"{name}.ipynb"), read(f"{name}.expected.ipynb")
    result = migrate(before, f"{name}.ipynb")
    assert result.code == expected
    again = migrate(result.code, f"{name}.ipynb")
    assert again.code == result.code, "a second run changed the notebook"
    assert not any(f.applied for f in again.findings), "a second run still applies fixes"


def test_both_layouts_are_covered():
    assert {"colab", "train"} <= set(FIXTURES)
    train, colab = read("train.ipynb"), read("colab.ipynb")
    assert train.endswith("}\n") and '\n "cells": [' in train and "é" in train
    assert not colab.endswith("\n") and '\n  "nbformat": 4' in colab and "\\u00e9" in colab


@pytest.mark.parametrize("name", FIXTURES)
def test_json_text_differs_only_in_changed_source_lines(name):
    before, after = read(f"{name}.ipynb"), read(f"{name}.expected.ipynb")
    old_cells, new_cells = json.loads(before)["cells"], json.loads(after)["cells"]
    changed_source_lines = []
    for old, new in zip(old_cells, new_cells, strict=True):
        assert {k: v for k, v in old.items() if k != "source"} == {
            k: v for k, v in new.items() if k != "source"
        }
        assert type(old["source"]) is type(new["source"])  # a list stays a list, a string a string
        if old["source"] != new["source"]:
            old_lines = old["source"] if isinstance(old["source"], list) else [old["source"]]
            new_lines = new["source"] if isinstance(new["source"], list) else [new["source"]]
            changed_source_lines += [line for line in old_lines if line not in new_lines]
    assert changed_source_lines, "the fixture changes nothing"
    text_diff = [
        line
        for line in difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True))
        if line.startswith(("-", "+"))
    ]
    removed = [line[2:] for line in text_diff if line.startswith("-")]
    added = [line[2:] for line in text_diff if line.startswith("+")]
    assert all(
        isinstance(json.loads(line.strip().removeprefix('"source": ').rstrip(",")), str) for line in added
    )
    decoded = [json.loads(line.strip().removeprefix('"source": ').rstrip(",")) for line in removed]
    assert decoded == changed_source_lines


def test_findings_name_their_cell():
    result = migrate(read("train.ipynb"))
    located = [(f.location, f.code, f.applied) for f in result.findings]
    assert located == [
        ("train.ipynb:cell 4:1:9", "TF24104", True),  # `tf` was imported in cell 2
        ("train.ipynb:cell 5:4:5", "TF24101", True),  # under %%time and a shell escape
        ("train.ipynb:cell 6:1:12", "TF24001", False),  # does not parse: reported, left alone
        ("train.ipynb:cell 7:1:1", "TF24004", False),  # %%bash naming the old API: a note
        ("train.ipynb:cell 8:2:1", "TF24101", True),  # %%writefile helper.py: a Python file
        ("train.ipynb:cell 11:1:10", "TF24101", True),  # after the broken cell, still migrated
    ]
    broken, bash = result.findings[2:4]
    assert broken.severity is Severity.ERROR and "cannot parse" in broken.message
    assert bash.severity is Severity.INFO and bash.message == "cell 7 is a %%bash cell: not migrated"


def test_only_python_code_cells_change():
    before, after = cell_sources(read("train.ipynb")), cell_sources(read("train.expected.ipynb"))
    unchanged = [n for n, (old, new) in enumerate(zip(before, after, strict=True), start=1) if old == new]
    assert unchanged == [1, 2, 3, 6, 7, 9, 10]
    for number in (1, 6, 7, 9):  # markdown, broken, %%bash, raw: all name the old API
        assert "experimental_run_v2" in after[number - 1] or "CollectiveHints" in after[number - 1]
    assert after[7] == "%%writefile helper.py\nstrategy.run(train_step)\n"
    assert "experimental_run_v2 is deprecated" in read("train.expected.ipynb")  # an output


def test_imports_resolve_across_cells_and_only_to_tensorflow():
    hints = "hints = tf.distribute.experimental.CollectiveHints()\n"
    result = migrate(notebook("import tensorflow as tf\n", "x = 1\n", hints))
    assert cell_sources(result.code)[2] == hints.replace("CollectiveHints", "CommunicationOptions")
    assert [f.cell for f in result.findings] == [3]
    other = migrate(notebook("import tinyflow as tf\n", "x = 1\n", hints))
    assert not other.changed and not other.findings


def test_broken_cell_rejected_by_the_engine_parser_only(monkeypatch):
    # Cells that Python's parser takes but LibCST refuses take the engine's path: same report.
    monkeypatch.setattr(notebooks, "_python_syntax_error", lambda cell: None)
    text = notebook("s.experimental_run_v2(f)\n", "def f(:\n    pass\n", "s.experimental_run_v2(g)\n")
    result = migrate(text)
    assert [(f.cell, f.line, f.code) for f in result.findings] == [
        (1, 1, "TF24101"),
        (2, 1, "TF24001"),
        (3, 1, "TF24101"),
    ]
    assert cell_sources(result.code) == ["s.run(f)\n", "def f(:\n    pass\n", "s.run(g)\n"]


def test_non_python_kernel_is_skipped_with_a_note():
    text = read("r_kernel.ipynb")
    result = migrate(text, "r_kernel.ipynb")
    assert result.code == text
    (note,) = result.findings
    assert (note.code, note.severity, note.cell) == ("TF24002", Severity.INFO, None)
    assert "kernel language is R" in note.message
    assert migrate(notebook("s.experimental_run_v2(f)\n", language="python")).changed


def test_text_that_is_not_a_notebook_is_an_error():
    with pytest.raises(SourceSyntaxError) as error:
        migrate('{"cells": [\n  {"source": "x"\n}')
    assert error.value.lineno == 3
    with pytest.raises(SourceSyntaxError, match="nbformat 4"):
        migrate('{"worksheets": []}')


def test_cell_without_final_newline_and_crlf_lines_keep_their_endings():
    sources = ["x = 1\r\ns.experimental_run_v2(f)", "%time s.experimental_run_v2(f)\r\ny = 2\r\n"]
    result = migrate(notebook(*sources))
    assert cell_sources(result.code) == ["x = 1\r\ns.run(f)", sources[1]]


def test_suppression_comments_work_in_cells():
    sources = ["s.experimental_run_v2(f)  # tf24migrate: ignore\n", "s.experimental_run_v2(f)\n"]
    result = migrate(notebook(*sources))
    assert cell_sources(result.code) == [sources[0], "s.run(f)\n"]
    assert [f.cell for f in result.findings] == [2]


def test_crlf_notebook_file_keeps_its_line_endings():
    before, expected = read("train.ipynb"), read("train.expected.ipynb")
    result = migrate(before.replace("\n", "\r\n"))
    assert result.code == expected.replace("\n", "\r\n")


class AddsTensorFlowImport(Rule):
    """A rule that needs `import tensorflow as tf`, as TF24106 does: `helper(x)` -> `tf.identity(x)`."""

    code, name, fix, triggers = "TF24999", "test-adds-import", Fix.SAFE, ("helper",)

    def leave_Call(self, ctx, original, updated):
        if isinstance(original.func, cst.Name) and original.func.value == "helper":
            spelled = ctx.spell("tensorflow.identity")
            return (
                ctx.report(original, "use tf.identity", replacement=updated.with_changes(func=spelled))
                or updated
            )
        return updated


@pytest.mark.parametrize(
    ("sources", "expected", "finding_line"),
    [
        (  # after the last import, in that import's cell
            ["# title\n", "import numpy as np\n\n# end of cell 2\n", "%time y = 1\nx = helper(np.ones(2))"],
            [
                "# title\n",
                "import numpy as np\nimport tensorflow as tf\n\n# end of cell 2\n",
                "%time y = 1\nx = tf.identity(np.ones(2))",
            ],
            2,
        ),
        (  # no import anywhere: at the top of the first code cell
            ["# title\n", "%pip install numpy\nx = 1\n", "x = helper(x)\n"],
            ["# title\nimport tensorflow as tf\n", "%pip install numpy\nx = 1\n", "x = tf.identity(x)\n"],
            1,
        ),
        (  # a later cell imports too: above the use, after the import before it, in its cell
            ["# title\n", "import numpy as np\nx = np.ones(2)\n", "x = helper(x)\n", "import os\n"],
            [
                "# title\n",
                "import numpy as np\nimport tensorflow as tf\nx = np.ones(2)\n",
                "x = tf.identity(x)\n",
                "import os\n",
            ],
            1,
        ),
    ],
)
def test_lines_a_rule_adds_stay_in_their_cell(sources, expected, finding_line):
    result = migrate_notebook(notebook(*sources), Settings([AddsTensorFlowImport()]), path="a.ipynb")
    assert cell_sources(result.code) == expected
    assert [(f.cell, f.line) for f in result.findings] == [(3, finding_line)]


IPYTHON_LINES = [
    "%matplotlib inline",
    "%%time",
    "!pip install -q tensorflow==2.3.0",
    "!!ls",
    "x = !ls",
    "files, more = %sx ls",
    "?tf.distribute",
    "??tf.distribute",
    "tf.distribute?",
    "tf.distribute.experimental.CollectiveHints??",
    "tf.*Hints*?",
    "/print 1",
]


@pytest.mark.parametrize("line", IPYTHON_LINES)
def test_ipython_line_is_masked_and_restored_exactly(line):
    source = f"import tensorflow as tf\nif True:\n    {line}\n{line}\n"
    masked = mask(source)
    compile(masked.code, "<cell>", "exec")  # parses as Python
    assert masked.code.count("\n") == source.count("\n")
    assert line not in masked.code
    assert unmask(masked.code, masked.ipython_lines) == source


@pytest.mark.parametrize(
    "source",
    [
        's = """\n!not a shell line\n%d items\nwhat?\n"""\n',
        "y = (5\n     % 3)\n",
        "x = 1  # really?\n",
        "x != 2\n",
        "x = 1 + \\\n    2\n",
    ],
)
def test_python_that_looks_like_ipython_is_left_to_python(source):
    assert mask(source).code == source


def test_only_newlines_end_lines():
    # str.splitlines would end a line at \u2028 and take `!b"` for a shell escape.
    source = 's = "a\u2028!b"\n!ls\x0c\nx = 1\n'
    masked = mask(source)
    assert masked.ipython_lines == ("!ls\x0c",)
    assert masked.code.startswith('s = "a\u2028!b"\n') and masked.code.endswith("\nx = 1\n")


def test_continued_magic_is_masked_whole():
    masked = mask("%pip install a \\\n    b\nx = 1\n")
    assert masked.ipython_lines == ("%pip install a \\", "    b")
    assert masked.code.endswith("\nx = 1\n")


@pytest.mark.parametrize(
    ("source", "python"),
    [("%%time\nx = 1\n", True), ("\n%%bash\nls\n", False), ("%%writefile a.py\nx\n", False), ("x\n", True)],
)
def test_cell_magics_decide_whether_a_cell_is_python(source, python):
    assert is_python_cell(source) is python


# ------------------------------------------------------------------ through the real command


@pytest.fixture
def project(tmp_path):
    for name in ("train.ipynb", "colab.ipynb", "r_kernel.ipynb"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def test_diff_shows_cell_source_not_json(project):
    result = run_in_process("train.ipynb", cwd=project)
    assert result.returncode == 1, result.stderr  # the broken cell is an error left to the user
    assert result.stdout.startswith("--- a/train.ipynb:cell 4\n+++ b/train.ipynb:cell 4\n")
    assert "-    strategy.experimental_run_v2(train_step, args=(batch,))\n" in result.stdout
    assert "+    strategy.run(train_step, args=(batch,))\n" in result.stdout
    assert '"source"' not in result.stdout and "\\n" not in result.stdout
    assert "train.ipynb:cell 5:4:5: TF24101 error [fixable]" in result.stderr
    assert "train.ipynb:cell 6:1:12: TF24001 error cell not migrated: cannot parse" in result.stderr
    assert (project / "train.ipynb").read_text(encoding="utf-8") == read("train.ipynb")


def test_write_changes_only_the_source_lines(project):
    result = run_in_process("--write", ".", cwd=project)
    assert "./colab.ipynb:cell 3:3:7: TF24104 info [fixed]" in result.stdout
    assert "./r_kernel.ipynb:1:1: TF24002 info notebook skipped" in result.stdout
    for name in FIXTURES:
        assert (project / f"{name}.ipynb").read_bytes() == (DATA / f"{name}.expected.ipynb").read_bytes()
    assert (project / "r_kernel.ipynb").read_bytes() == (DATA / "r_kernel.ipynb").read_bytes()
    assert "3 files scanned, 2 changed" in result.stderr


def test_check_lists_notebooks(project):
    result = run_in_process("--check", ".", cwd=project)
    assert result.returncode == 1
    assert result.stdout.count("would change:") == 2
    assert "would change: ./colab.ipynb" in result.stdout
    (project / "train.ipynb").unlink()
    (project / "colab.ipynb").write_text(read("colab.expected.ipynb"), encoding="utf-8")
    assert run_in_process("--check", ".", cwd=project).returncode == 0


def test_json_output_carries_the_cell(project):
    result = run_in_process("--output-format", "json", "colab.ipynb", "train.ipynb", cwd=project)
    document = json.loads(result.stdout)
    assert [f["path"] for f in document["files"]] == ["colab.ipynb", "train.ipynb"]
    assert document["files"][0]["diff"].startswith("--- a/colab.ipynb:cell 2\n+++ b/colab.ipynb:cell 2\n")
    located = [(f["path"], f["cell"], f["line"], f["column"], f["code"]) for f in document["findings"]]
    assert located[:3] == [
        ("colab.ipynb", 2, 2, 48, "TF24104"),
        ("colab.ipynb", 3, 3, 7, "TF24104"),
        ("train.ipynb", 4, 1, 9, "TF24104"),
    ]
    python_file = project / "plain.py"
    python_file.write_text("s.experimental_run_v2(f)\n")
    (finding,) = json.loads(run_in_process("--output-format", "json", "plain.py", cwd=project).stdout)[
        "findings"
    ]
    assert "cell" not in finding  # Python files' findings are as before


def test_invalid_notebook_fails_alone(project):
    (project / "bad.ipynb").write_text("{ not json", encoding="utf-8")
    result = run_in_process("--write", ".", cwd=project)
    assert result.returncode == 2
    assert "bad.ipynb:1:3: TF24005 error not a notebook: invalid JSON" in result.stdout
    assert (project / "colab.ipynb").read_text(encoding="utf-8") == read("colab.expected.ipynb")


def test_interactive_asks_about_each_fix_of_a_notebook(tmp_path):
    (tmp_path / "t.ipynb").write_text(
        notebook(
            "import tensorflow as tf\n",
            "%matplotlib inline\nstrategy.experimental_run_v2(step)\n",
            "model.compile(experimental_steps_per_execution=2)\n",
        )
    )
    done = run_in_process("-i", "t.ipynb", stdin="n\ny\n", cwd=tmp_path)
    assert done.stdout.count("Apply this change to t.ipynb") == 2
    assert "(TF24101, cell 2, line 2)" in done.stdout and "(TF24201, cell 3, line 1)" in done.stdout
    assert cell_sources((tmp_path / "t.ipynb").read_text()) == [
        "import tensorflow as tf\n",
        "%matplotlib inline\nstrategy.experimental_run_v2(step)\n",
        "model.compile(steps_per_execution=2)\n",
    ]
    assert "2 findings (1 fixed, 1 left to you)" in done.stderr


def test_a_name_an_ipython_line_uses_keeps_its_import():
    # The magic lines keep their text: a rename of the import (TF24105) or its removal once the
    # code's uses are rewritten (TF24107) would leave them a name nothing binds.
    sources = [
        "from tensorflow.distribute.experimental import CollectiveCommunication\n",
        "x = CollectiveCommunication.RING\n%time y = CollectiveCommunication.AUTO\n",
        "from tensorflow.distribute.experimental import MultiWorkerMirroredStrategy\n",
        "s = MultiWorkerMirroredStrategy()\n%time t = MultiWorkerMirroredStrategy()\n",
        "from tensorflow.distribute.experimental import CollectiveHints\nh = CollectiveHints()\n",
    ]
    result = migrate(notebook(*sources), "a.ipynb")
    assert cell_sources(result.code) == [
        *sources[:4],
        "from tensorflow.distribute.experimental import CommunicationOptions\nh = CommunicationOptions()\n",
    ]
    assert [(f.cell, f.code, f.applied) for f in result.findings] == [
        (1, "TF24105", False),
        (4, "TF24107", False),
        (5, "TF24104", True),
    ]
