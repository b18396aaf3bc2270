"""The registered rules are exactly the catalogue of the spec (`rules.md`), with its codes,
names and defaults: the catalogue is the contract. A rule an issue added after the catalogue was
written is listed in `ADDED_BY_ISSUES`, with the issue that asked for it, until the catalogue has it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tf24migrate.rules.selection import all_rules

CATALOGUE = Path(__file__).resolve().parents[2] / "shared" / "spec" / "rules.md"
ROW = re.compile(r"^\| (TF24\d{3}) \| ([a-z0-9-]+) \|.*\| (yes|opt-in) \|$", re.MULTILINE)

# code -> (name, default): rules the issues asked for that the catalogue does not list yet.
ADDED_BY_ISSUES = {
    # Issue 12: "New finding: `.loss_scale` read on a policy".
    "TF24309": ("policy-loss-scale", True),
    # Issue 12: mentions of old names in prose
    "TF24801": ("old-names-in-prose", False),
}


@pytest.mark.skipif(not CATALOGUE.is_file(), reason="the spec folder is not beside this checkout")
def test_rules_match_the_catalogue():
    rows = {code: (name, default == "yes") for code, name, default in ROW.findall(CATALOGUE.read_text())}
    assert len(rows) >= 40
    registered = {rule.code: (rule.name, rule.default) for rule in all_rules()}
    assert not rows.keys() & ADDED_BY_ISSUES.keys(), (
        "the catalogue lists it now: drop it from ADDED_BY_ISSUES"
    )
    assert registered == rows | ADDED_BY_ISSUES
