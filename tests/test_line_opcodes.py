"""`rules.text.line_opcodes`: difflib's opcodes for the line diffs of a migration (notebook
sources, SARIF fixes, form feeds), without difflib's quadratic time on repeated lines, which
hung on a notebook cell of 50,000 lines."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tf24migrate.rules.text import line_opcodes


def _applied(old, new, opcodes):
    """`new` rebuilt from `old` and the opcodes, checking that they tile both and that what they
    call equal is."""
    rebuilt, old_at, new_at = [], 0, 0
    for tag, old_from, old_to, new_from, new_to in opcodes:
        assert (old_from, new_from) == (old_at, new_at)
        if tag == "equal":
            assert old[old_from:old_to] == new[new_from:new_to]
            rebuilt += old[old_from:old_to]
        else:
            assert tag in ("replace", "delete", "insert")
            rebuilt += new[new_from:new_to]
        old_at, new_at = old_to, new_to
    assert (old_at, new_at) == (len(old), len(new))
    return rebuilt


@pytest.mark.parametrize("seed", range(200))
def test_the_opcodes_tile_both_sides_and_rebuild_the_new_lines(seed):
    pick = random.Random(seed)
    old = [pick.choice("abc") for _ in range(pick.randrange(12))]
    new = list(old)
    for _ in range(pick.randrange(4)):
        at = pick.randrange(len(new) + 1)
        change = pick.choice(("replace", "insert", "delete"))
        if change == "insert" or not new or at == len(new):
            new.insert(at, pick.choice("abz"))
        elif change == "replace":
            new[at] = "z"
        else:
            del new[at]
    assert _applied(old, new, line_opcodes(old, new)) == new


def test_lines_kept_in_place_are_equal_however_often_they_repeat():
    old = ["import tensorflow as tf\n", *["x = 1\n"] * 50_000, "s.experimental_run_v2(f)\n"]
    new = ["import tensorflow.compat.v2 as tf\n", *old[1:-1], "s.run(f)\n"]
    assert line_opcodes(old, new) == [
        ("replace", 0, 1, 0, 1),
        ("equal", 1, 50_001, 1, 50_001),
        ("replace", 50_001, 50_002, 50_001, 50_002),
    ]


def test_a_changed_count_of_lines_is_aligned_by_difflib():
    old = ["a\n", "b\n", "c\n", "d\n"]
    new = ["a\n", "b1\n", "b2\n", "c\n", "d\n"]
    assert line_opcodes(old, new) == [("equal", 0, 1, 0, 1), ("replace", 1, 2, 1, 3), ("equal", 2, 4, 3, 5)]


@pytest.mark.slow  # a 50,000-line cell
def test_a_notebook_cell_of_50000_lines_is_migrated(tmp_path):
    lines = ["import tensorflow as tf\n", *["x = 1\n"] * 50_000, "s.experimental_run_v2(f)\n"]
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(notebook, indent=1)
    (tmp_path / "nb.ipynb").write_text(text)
    command = [sys.executable, "-m", "tf24migrate", "--write", "--no-cache", "nb.ipynb"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "nb.ipynb").read_text() == text.replace("experimental_run_v2", "run")
