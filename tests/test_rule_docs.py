"""Every registered rule documents itself, with an example, and `--explain` shows it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tf24migrate.cli.command import _app
from tf24migrate.rules.selection import all_rules

# A rule's docs show what it changes (Before/After) or what it reports and what to write instead.
EXAMPLE_MARKERS = (("Before:", "After:"), ("Reported:", "Write instead:"))


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_has_docs_with_an_example(rule):
    doc = rule.doc
    assert rule.summary.strip(), f"{rule.code} has no docstring (or `doc=`)"
    assert any(all(marker in doc for marker in pair) for pair in EXAMPLE_MARKERS), (
        f"{rule.code}'s docs show no example: add `Before:`/`After:` or `Reported:`/`Write instead:` lines"
    )


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_explain_shows_the_docs(rule):
    result = CliRunner().invoke(_app(), ["--explain", rule.code])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{rule.code} {rule.name}\n")
    assert rule.doc in result.output
