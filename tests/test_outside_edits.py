"""The guard before a write: text outside the statements a migration regenerated is never changed."""

from __future__ import annotations

import pytest

from tf24migrate import migrate_source
from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine import pipeline as engine
from tf24migrate.engine.outside_edits import changed_lines, first_line_changed_outside
from tf24migrate.model.findings import Status
from tf24migrate.run.migrate_file import migrate_file

SOURCE = (
    "import tensorflow as tf\n"
    "x = 1  # the user's\n"
    "\n"
    "def train(strategy):\n"
    "    return strategy.experimental_run_v2(step_fn)\n"
    "\n"
    "y = 2\n"
)


def test_the_engine_names_only_the_statement_it_regenerated():
    result = migrate_source(SOURCE)
    assert result.code == SOURCE.replace("experimental_run_v2", "run")
    # the `def` and the blank line before it (its leading line), regenerated in place
    assert {line for first, last in result.edited for line in range(first, last + 1)} == {3, 4, 5}


def test_a_change_outside_the_edited_statements_is_refused_and_nothing_written(tmp_path, monkeypatch):
    path = tmp_path / "train.py"
    path.write_text(SOURCE)
    edges = engine.with_the_edges_of
    # A bug somewhere after the statements were generated, touching a line no fix edited.
    monkeypatch.setattr(engine, "with_the_edges_of", lambda s, c: edges(s, c).replace("y = 2", "y = 3"))
    result = migrate_file(str(path), Settings(select_rules()), write=True)
    assert result.status is Status.FAILED and not result.written
    assert result.error.startswith(
        "internal error: would change text outside the edited statements (line 7); nothing written"
    )
    assert path.read_text() == SOURCE


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ("a\nB\nc\nd\n", None),  # the edited line
        ("a\nB\nnew\nc\nd\n", None),  # lines added inside the edit
        ("a\nc\nd\n", None),  # the edited line removed
        ("a\nb\nc\nD\n", 4),  # a kept line changed
        ("a\nb\nc\nd", 4),  # the last line end lost
        ("\ufeffa\nb\nc\nd\n", 1),  # a byte added before the first line
        ("a\nc\nb\nd\n", 3),  # kept lines reordered
    ],
)
def test_kept_lines_must_come_back_in_order_and_byte_for_byte(code, line):
    assert first_line_changed_outside("a\nb\nc\nd\n", code, [(2, 2)]) == line


def test_nothing_edited_means_nothing_may_change():
    assert first_line_changed_outside("a\n", "a\n", []) is None
    assert first_line_changed_outside("a\n", "a\nb\n", []) == 1


def test_stages_that_keep_lines_in_place_name_the_lines_they_changed():
    assert changed_lines("a\nb\nc\nd\n", "a\nB\nC\nd\n") == ((2, 3),)
    assert changed_lines("a\r\nb\r\n", "a\r\nb\n") == ((2, 2),)
