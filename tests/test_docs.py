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
