"""Every registered rule documents itself, with an example, and `--explain` shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tf24migrate.catalogue.entries import explanation, versions_section
from tf24migrate.catalogue.entry_table import Entry
from tf24migrate.catalogue.selection import all_rules
from tf24migrate.cli.command import _app
from tf24migrate.model.target import versions_line

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
    body, checked = versions_section(rule.doc)
    assert body in result.output
    shown = " ".join(result.output.split())
    assert shown.count("Checked: ") == (checked is not None)  # said once, beside the versions
    if checked:
        assert (
            f"TensorFlow versions: {versions_line(rule.versions)} Checked: {' '.join(checked.split())}"
            in shown
        )


def test_sources_cite_the_release_notes_or_the_api_not_an_outside_file():
    """The notes the rules were first written from are not in the repository: a reader cannot follow
    a citation of them."""
    root = Path(__file__).resolve().parent.parent
    outside = re.compile(r"§|tf24-api-changes|\bspec/")
    cited = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for folder in ("transforms", "tf24migrate")
        for path in sorted((root / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if outside.search(line)
    ]
    assert not cited, (
        "cite the TensorFlow release notes or a module of a released wheel instead:\n" + "\n".join(cited)
    )


def test_explain_never_breaks_a_name_at_its_hyphen():
    """`tensorflow-cpu` and `tf-2.4.0` are names a reader copies: the versions paragraph wraps
    between words only (a new rule's `Checked:` text met this in the contributor's path)."""
    checked = (
        "the signatures of the "
        + "tensorflow-cpu 2.4.0 wheel, " * 6
        + "in tf24migrate/model/release_diff.py."
    )
    doc = f"A summary.\n\nBefore: `a`\nAfter: `b`\n\nVersions: {checked}\n"
    shown = explanation(Entry("TF24999", "example", "safe", True, "info", "2.4", None, None, doc))
    words = {word for line in shown.splitlines() for word in line.split()}
    assert "tensorflow-cpu" in words
    assert not any(line.endswith("-") for line in shown.splitlines())
