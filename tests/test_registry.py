"""Rules are registered from wherever they are defined under `transforms/`, and each lives in the
package of its family."""

from __future__ import annotations

import importlib
import re
import sys
import textwrap

from tf24migrate.transforms import FAMILIES, discover_rules, rule_modules

from tf24migrate.catalogue.selection import all_rules


def test_a_module_with_rules_is_registered_at_any_depth(tmp_path, monkeypatch):
    package = tmp_path / "extra_rules"
    deep = package / "family" / "deeper"
    deep.mkdir(parents=True)
    for folder in (package, package / "family", deep):
        (folder / "__init__.py").write_text("")
    (package / "family" / "_shared.py").write_text("RULES = ('never registered',)\n")
    (deep / "new_rule.py").write_text(
        textwrap.dedent(
            """\
            from tf24migrate.model.findings import Severity
            from tf24migrate.rules.kinds import RenameMethod

            NEW = RenameMethod(
                code="TF24999", name="new-rule", old="old_method", new="new_method",
                severity=Severity.WARNING, message="`old_method` is `new_method`.",
                doc="`old_method` is `new_method`.",
            )
            RULES = (NEW,)
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        modules = rule_modules("extra_rules", [str(package)])
        assert "extra_rules.family.deeper.new_rule" in modules
        assert not any(name.rpartition(".")[2].startswith("_") for name in modules)
        assert [rule.code for rule in discover_rules(modules)] == ["TF24999"]
    finally:
        for name in [name for name in sys.modules if name.startswith("extra_rules")]:
            del sys.modules[name]


def test_every_rule_lives_in_the_package_of_its_family():
    placed = {}
    for name in rule_modules():
        for rule in getattr(importlib.import_module(name), "RULES", ()):
            placed[rule.code] = name
    assert sorted(placed) == [rule.code for rule in all_rules()]
    for code, module in placed.items():
        assert module.split(".")[2] == FAMILIES[code[:5]], f"{code} is defined in {module}"


def test_codes_and_names_are_well_formed():
    for rule in all_rules():
        assert re.fullmatch(r"TF24[1-8]\d\d", rule.code), rule.code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name
        assert rule.summary, f"{rule.code} has no docstring"
