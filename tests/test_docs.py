"""The documentation is tested: the library guide's examples run, and the rule reference is current."""

from __future__ import annotations

import doctest
from pathlib import Path

import tf24migrate.engine.pipeline
from tf24migrate.catalogue.docs import render_reference
from tf24migrate.catalogue.selection import all_rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_library_guide_examples_run():
    result = doctest.testfile(str(DOCS / "library.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_docstring_examples_run():
    result = doctest.testmod(tf24migrate.engine.pipeline)
    assert result.attempted > 0 and result.failed == 0


def test_rule_reference_is_current():
    expected = render_reference(all_rules())
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == expected, (
        "docs/rules.md is stale: run `python -m tf24migrate.dev regen`"
    )


def test_the_contributor_guide_names_the_families_and_the_notes_there_are():
    """The guide's code families are the registry's (`transforms.FAMILIES`), and the notes it
    places in TF240xx are there: a family added or a note's code moved fails here. (Its layers
    drawing is checked by tests/test_architecture.py; it quotes no count of tests or rules.)"""
    from tf24migrate.transforms import FAMILIES

    from tf24migrate.model.notes import NOTES

    guide = " ".join((DOCS / "contributing.md").read_text(encoding="utf-8").split())
    families = guide.split("Codes follow the families of the catalogue: ")[1].split(".\n")[0].split(". ")[0]
    assert [part.split()[0] for part in families.split(", ")] == [f"{prefix}xx" for prefix in FAMILIES]
    assert "the notes that are not rules, TF240xx (`notes`)" in guide
    assert NOTES and all(note.code.startswith("TF240") for note in NOTES)
