"""Every fixture: expected output, expected findings, idempotence, output parses."""

from __future__ import annotations

import ast
import os
from collections import Counter

import pytest
from fixture_cases import all_cases, render_findings

from tf24migrate import migrate_source
from tf24migrate.outside_edits import first_line_changed_outside
from tf24migrate.rules import all_rules

CASES = all_cases()
UPDATE = os.environ.get("TF24MIGRATE_UPDATE_FIXTURES") == "1"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture(case):
    options = case.options()
    source = case.input.read_text(encoding="utf-8")
    result = migrate_source(source, path=case.input.name, **options)
    if UPDATE:
        if result.code == source:
            case.expected.unlink(missing_ok=True)
        else:
            case.expected.write_text(result.code, encoding="utf-8")
        case.findings.write_text(render_findings(result.findings), encoding="utf-8")
    assert result.code == case.expected_output()
    assert render_findings(result.findings) == case.findings.read_text(encoding="utf-8")
    ast.parse(result.code)
    if result.changed:  # the engine says which lines it regenerated, and kept all the others
        assert first_line_changed_outside(source, result.code, result.edited) is None
    again = migrate_source(result.code, **options)
    assert again.code == result.code, "a second run changed the output"
    assert not any(f.applied for f in again.findings), "a second run still applies fixes"
    assert not left_to_the_user(result.findings) - Counter(f.code for f in again.findings), (
        "a finding left to the user before the fixes is not reported after them"
    )


def left_to_the_user(findings) -> Counter:
    """How many findings of each code are reported and not fixed: work that must stay on the list."""
    return Counter(f.code for f in findings if not f.applied)


def test_every_rule_has_fixtures():
    folders = {c.folder.name for c in CASES}
    for rule in all_rules():
        assert f"{rule.code}-{rule.name}" in folders, f"no fixtures/{rule.code}-{rule.name}/"


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_every_rule_has_positive_and_negative_cases(rule):
    cases = [c for c in CASES if c.code == rule.code]
    outcomes = [c.findings.read_text(encoding="utf-8").strip() != "" for c in cases]
    assert any(outcomes), f"{rule.code} has no case where it fires"
    assert not all(outcomes), f"{rule.code} has no negative case"
