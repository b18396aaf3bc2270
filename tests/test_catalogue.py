"""The registered rules are exactly the catalogue of the spec (`rules.md`), with its codes,
names and defaults: the catalogue is the contract."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tf24migrate.rules import all_rules

CATALOGUE = Path(__file__).resolve().parents[2] / "shared" / "spec" / "rules.md"
ROW = re.compile(r"^\| (TF24\d{3}) \| ([a-z0-9-]+) \|.*\| (yes|opt-in) \|$", re.MULTILINE)


@pytest.mark.skipif(not CATALOGUE.is_file(), reason="the spec folder is not beside this checkout")
def test_rules_match_the_catalogue():
    rows = {code: (name, default == "yes") for code, name, default in ROW.findall(CATALOGUE.read_text())}
    assert len(rows) >= 40
    registered = {rule.code: (rule.name, rule.default) for rule in all_rules()}
    assert registered == rows
