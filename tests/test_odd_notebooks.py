"""Notebooks under torture: text holding the markers the notebook code uses internally, JSON that
is not a notebook tf24migrate can edit (a clear message, never an internal error), and named
paths that are not regular files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_notebooks import cell_sources, migrate, notebook

from tf24migrate.model.errors import SourceSyntaxError
from tf24migrate.sources.notebook_json import load, load_streaming

CALL = "import tensorflow as tf\ns = tf.distribute.MirroredStrategy()\ns.experimental_run_v2(f)\n"


@pytest.mark.parametrize(
    "held",
    [
        "__tf24m_cell_1__\n",  # the marker between cells, on a line of its own
        "x = 1\n__tf24m_cell_1__\n__tf24m_cell_7__ = 2\n",
        "__tf24m_ipython_0__\n",  # the placeholder of a masked IPython line
        "%time x = 1\n__tf24m_ipython_0__\n",
    ],
)
def test_a_notebook_holding_an_internal_marker_still_migrates(held):
    result = migrate(notebook(CALL, held, "%ls\ns.experimental_run_v2(g)\n"))
    assert cell_sources(result.code) == [
        CALL.replace("experimental_run_v2", "run"),
        held,
        "%ls\ns.run(g)\n",
    ]


def _cells(*cells) -> str:
    return json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


CODE = {"cell_type": "code", "metadata": {}, "outputs": [], "source": CALL}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[1, 2]", "the file is a JSON array, not an object"),
        (json.dumps({"cells": {"a": CODE}, "nbformat": 4}), '"cells" is a JSON object, not a list'),
        (_cells(CODE, {"cell_type": "code", "metadata": {}}), "cell 2 has no source"),
        (_cells(CODE, {"cell_type": "code", "source": 3}), "the source of cell 2 is a number, not text"),
        (
            _cells({"cell_type": "markdown", "source": {"a": 1}}),
            "the source of cell 1 is a JSON object, not text",
        ),
        (
            _cells({"cell_type": "code", "source": ["x", 1]}),
            "the source of cell 1 is a list holding a number",
        ),
        (_cells(CODE, "print(1)"), "cell 2 is a string, not a JSON object"),
        (
            json.dumps({"worksheets": [{"cells": [CODE]}], "nbformat": 3}),
            "nbformat 3 (cells in worksheets); convert it with `jupyter nbconvert --to notebook --nbformat 4`",
        ),
        (json.dumps({"cells": [CODE], "metadata": [], "nbformat": 4}), '"metadata" is a list, not an object'),
    ],
)
def test_an_odd_notebook_is_refused_with_the_reason(text, why):
    with pytest.raises(SourceSyntaxError) as raised:
        migrate(text)
    assert raised.value.msg == f"not a notebook tf24migrate can edit: {why}"


def test_json_nested_too_deep_for_python_s_reader_is_refused():
    text = '{"cells": [], "metadata": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001
    with pytest.raises(SourceSyntaxError) as raised:
        migrate(text)
    assert raised.value.msg == "not a notebook tf24migrate can edit: its JSON is nested too deep to read"


def test_an_odd_notebook_fails_as_a_file_through_the_command(tmp_path):
    (tmp_path / "odd.ipynb").write_text(_cells(CODE, {"cell_type": "code", "source": 3}))
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--check", "odd.ipynb"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert (
        "TF24005 error not a notebook tf24migrate can edit: the source of cell 2 is"
        in result.stdout + result.stderr
    )
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def _tf24migrate(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "tf24migrate", *args], cwd=cwd, capture_output=True, text=True
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_a_device_named_is_not_a_regular_file(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "ok.py").write_text(CALL)
    result = _tf24migrate("--check", "pipe.py", os.devnull, "ok.py", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "tf24migrate: pipe.py: not a regular file (a FIFO): name a file or a folder\n" in result.stderr
    assert f"tf24migrate: {os.devnull}: not a regular file (a character device)" in result.stderr
    assert "no such file or folder" not in result.stderr
    assert "would change: ok.py" in result.stdout


def test_a_path_that_cannot_be_looked_at_is_a_permission_problem(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from tf24migrate.cli import command

    real_stat = os.stat

    def stat(path, *args, **kwargs):
        if os.fspath(path).endswith("locked.py"):
            raise PermissionError(13, "Permission denied", path)
        return real_stat(path, *args, **kwargs)

    (tmp_path / "locked.py").write_text(CALL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "lstat", stat)
    result = CliRunner().invoke(command._app(), ["--check", "locked.py"])
    assert result.exit_code == 2, result.output
    assert "tf24migrate: locked.py: permission denied" in result.stderr
    assert "no such file or folder" not in result.stderr


@pytest.mark.parametrize(
    "text",
    [
        _cells(CODE, {"cell_type": "markdown", "metadata": {}, "source": ["# a\n", "b"]}),
        json.dumps({"metadata": {"k": [1, 2.5, None, True]}, "cells": [CODE, CODE], "nbformat": 4}, indent=1),
        ' \n{"cells": [] , "n": 12345678901234567890}\r\n',
        '{"cells": [{"cell_type": "code", "source": "x", "x": 1, "x": 2}]}',  # a key twice
        '{"cells": [], "cells": []}',
        '{"cells": [1,], "metadata": {}}',  # a trailing comma
        '{"cells": [], "metadata": {},}',
        '{"cells": [] "metadata": {}}',  # a comma missing
        '{"cells" [], "metadata": {}}',
        '{"cells": []} {}',  # extra data
        '{"cells": [{"cell_type": "code", "source": "x"}]',  # unclosed
        "\ufeff" + _cells(CODE),
        "{}",
        "[]",
        "",
    ],
)
def test_a_notebook_read_a_cell_at_a_time_is_the_notebook_read_whole(text):
    """`load_streaming` (what a run uses, so that 100,000 cells are never all JSON objects at once)
    gives the cells and the rest of the notebook `load` gives, or None where `load` refuses."""
    cells = []
    streamed = load_streaming(text, lambda index, cell: cells.append((index, cell)))
    try:
        whole = load(text, None)
    except SourceSyntaxError:
        assert streamed is None
        return
    assert streamed is not None
    assert {**streamed, "cells": [cell for _, cell in cells]} == whole
    assert [index for index, _ in cells] == list(range(len(whole["cells"])))
