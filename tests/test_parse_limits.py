"""Sources LibCST must never see: what Python's parser rejects, nesting deep enough to crash
LibCST's native parser (a segmentation fault killed the whole run) or its recursive passes, and a
statement holding a trigger too long for LibCST's memory (`syntax.MAX_STATEMENT`). Each fails its
own file with a message; the other files are migrated."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tf24migrate import SourceSyntaxError, migrate_source

OLD = "import tensorflow as tf\nstrategy.experimental_run_v2(step_fn)\n"
DEEP = {
    "a 10,000-term + chain": "import tensorflow as tf\nx = s.experimental_run_v2("
    + "+".join(["a"] * 10_000)
    + ")\n",
    "a 1,000-term + chain": "import tensorflow as tf\nx = s.experimental_run_v2("
    + "+".join(["a"] * 1_000)
    + ")\n",
    "2,000 nested parentheses": "import tensorflow as tf\nx = "
    + "(" * 2000
    + "s.experimental_run_v2(f)"
    + ")" * 2000
    + "\n",
    # Python's own parser gives up on these with a MemoryError (its stack, not the machine's memory)
    "100,000 nested `not`": "import tensorflow as tf\nx = " + "not " * 100_000 + "y\n" + OLD,
    "10,000 nested conditional expressions": "import tensorflow as tf\nx = "
    + "a if b else " * 10_000
    + "c\n"
    + OLD,
}
TOO_DEEP_FOR_PYTHON = "x = " + "-" * 100_000 + "y\n"


def run(*args, cwd):
    command = [sys.executable, "-m", "tf24migrate", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("source", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_fails_its_file_and_the_run_goes_on(tmp_path, source):
    (tmp_path / "a_deep.py").write_text(source)
    (tmp_path / "b_train.py").write_text(OLD)
    result = run("--write", "-j", "1", ".", cwd=tmp_path)
    assert result.returncode == 2, result.stderr  # not -11 (a segfault), not 1 (a traceback)
    assert "./a_deep.py:" in result.stdout and " TF24005 error cannot parse:" in result.stdout
    assert "nesting too deep" in result.stdout or "too many nested parentheses" in result.stdout
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert (tmp_path / "a_deep.py").read_text() == source
    assert (tmp_path / "b_train.py").read_text() == OLD.replace("experimental_run_v2", "run")


def test_nesting_within_the_limit_is_migrated(tmp_path):
    source = "import tensorflow as tf\nx = s.experimental_run_v2(" + "+".join(["a"] * 300) + ")\n"
    (tmp_path / "train.py").write_text(source)
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.py").read_text() == source.replace("experimental_run_v2", "run")


# A call due a fix, 300,037 characters long (100,000 arguments): LibCST took 600 MB and 7 s for it
# (its line 4 more, indented in a function).
HUGE_CALL = "strategy.experimental_run_v2(step, " + "0, " * 100_000 + ")\n"


def test_a_statement_too_long_for_libcst_fails_its_file_and_the_run_goes_on(tmp_path):
    source = (
        "import tensorflow as tf\n\n\ndef train():\n    " + HUGE_CALL + "    " + OLD.splitlines()[1] + "\n"
    )
    (tmp_path / "a_huge.py").write_text(source)
    (tmp_path / "b_train.py").write_text(OLD)
    result = run("--write", "-j", "1", ".", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert (
        "./a_huge.py:5:1: TF24005 error cannot parse: the statement at line 5 is 300,041 characters "
        "long, over the limit of 262,144 given to LibCST at once"
    ) in result.stdout
    assert "split the statement into smaller ones, or exclude the file (--extend-exclude)" in result.stdout
    assert "1 failed" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "a_huge.py").read_text() == source
    assert (tmp_path / "b_train.py").read_text() == OLD.replace("experimental_run_v2", "run")


def test_a_long_statement_without_a_trigger_is_not_given_to_libcst(tmp_path):
    """The limit is on what LibCST is given: a long statement no rule reads is left out of it."""
    source = "import tensorflow as tf\ntable = [" + "0, " * 100_000 + "]\n" + OLD.splitlines()[1] + "\n"
    result = migrate_source(source)
    assert result.code == source.replace("experimental_run_v2", "run")
    with pytest.raises(SourceSyntaxError, match="the statement at line 2 is 300,037 characters long"):
        migrate_source("import tensorflow as tf\n" + HUGE_CALL)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="PEP 695 syntax parses from Python 3.12")
def test_syntax_newer_than_the_running_python_says_so(tmp_path):
    (tmp_path / "train.py").write_text("import tensorflow as tf\ntype Step = int\n" + OLD)
    result = run("--check", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "(the syntax of a newer Python than 3." in result.stdout
    assert "internal error" not in result.stderr


def test_the_library_says_nesting_too_deep_for_python_s_parser():
    with pytest.raises(SourceSyntaxError, match="nesting too deep"):
        migrate_source("import tensorflow as tf\n" + TOO_DEEP_FOR_PYTHON + OLD)


def test_stdin_echoes_a_source_too_deep_for_python_s_parser():
    source = "import tensorflow as tf\n" + TOO_DEEP_FOR_PYTHON + OLD
    command = [sys.executable, "-m", "tf24migrate", "-"]
    result = subprocess.run(command, input=source, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stdout == source
    assert "<stdin>:1:1: TF24005 error cannot parse: nesting too deep" in result.stderr
    assert "internal error" not in result.stderr


def test_a_doctest_example_too_deep_for_python_s_parser_is_left_alone():
    example = ">>> " + TOO_DEEP_FOR_PYTHON
    source = f'import tensorflow as tf\n\n\ndef f():\n    """Run.\n\n    {example}    """\n' + OLD
    assert migrate_source(source).code == source.replace("strategy.experimental_run_v2", "strategy.run")


def test_a_notebook_cell_too_deep_for_python_s_parser_is_reported(tmp_path):
    cells = [OLD, TOO_DEEP_FOR_PYTHON]
    notebook = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": [c], "outputs": []} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook))
    result = run("--check", "nb.ipynb", cwd=tmp_path)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr  # the first cell is due
    assert "cell 2" in result.stdout + result.stderr
