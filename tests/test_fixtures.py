"""Every fixture: expected output, expected findings, idempotence, output parses."""

from __future__ import annotations

import ast
from collections import Counter

import pytest

from tf24migrate import migrate_source
from tf24migrate.catalogue.selection import all_rules
from tf24migrate.dev.fixtures import all_cases, render_findings, snapshot_diff
from tf24migrate.engine.outside_edits import first_line_changed_outside

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture(case):
    options = case.options()
    source = case.input.read_text(encoding="utf-8")
    result = migrate_source(source, path=case.input.name, **options)
    expected_path = case.expected if case.expected.exists() else case.input
    check_snapshot(case.expected_output(), result.code, expected_path)
    check_snapshot(case.findings.read_text(encoding="utf-8"), render_findings(result.findings), case.findings)
    ast.parse(result.code)
    if result.changed:  # the engine says which lines it regenerated, and kept all the others
        assert first_line_changed_outside(source, result.code, result.edited) is None
    again = migrate_source(result.code, **options)
    assert again.code == result.code, "a second run changed the output"
    assert not any(f.applied for f in again.findings), "a second run still applies fixes"
    assert not left_to_the_user(result.findings) - Counter(f.code for f in again.findings), (
        "a finding left to the user before the fixes is not reported after them"
    )


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_with_crlf_line_endings(case):
    """The same findings and the same code, its lines ending as the input's, when every line of
    the input ends with CRLF (as files checked out on Windows do)."""
    options = case.options()
    source = case.input.read_text(encoding="utf-8")
    assert "\r" not in source
    lf = migrate_source(source, path=case.input.name, **options)
    crlf = migrate_source(source.replace("\n", "\r\n"), path=case.input.name, **options)
    assert render_findings(crlf.findings) == render_findings(lf.findings)
    assert crlf.code == lf.code.replace("\n", "\r\n")


def check_snapshot(expected: str, actual: str, path) -> None:
    """Fail with a diff from the stored file to this run's output when they differ."""
    if actual != expected:
        pytest.fail(
            f"{path.name} differs from this run (stored -> actual):\n"
            f"{snapshot_diff(expected, actual, path)}"
            "If the new output is right, regenerate with `python -m tf24migrate.dev regen` and review the diff.",
            pytrace=False,
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


def test_a_snapshot_mismatch_is_reported_as_a_diff(tmp_path):
    path = tmp_path / "case.findings"
    stored = "3:1 TF24003 info none not-applied\n    old wording\n"
    actual = "3:1 TF24003 info none not-applied\n    new wording\n"
    with pytest.raises(pytest.fail.Exception) as failure:
        check_snapshot(stored, actual, path)
    report = str(failure.value)
    assert "-    old wording\n+    new wording\n" in report
    assert "python -m tf24migrate.dev regen" in report
    check_snapshot(stored, stored, path)
