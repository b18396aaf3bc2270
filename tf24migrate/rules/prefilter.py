"""The text prefilter: which rules could fire in a text, and whether any could. The one place.

A rule declares what must occur in a text for it to possibly fire:
- `requires`: each of these occurs in the file (`"tensorflow"` for rules that match only names
  reached through an import of TensorFlow);
- `triggers`: one of these occurs. The engine also visits only the statements on lines holding
  a trigger of an active rule, or using a name bound on such a line (`pruning`): every line a
  rule must look at has to hold one of its triggers.

Each is a `Needle`: a literal string, or a compiled regular expression (`re.compile(r"\\bInput\\b")`)
where a literal would let through much more than the rule can match. A rule's `requires` and
`triggers` are the only inputs: nothing else decides whether a text is parsed.

A run must turn away a file no rule can fire in without importing the rules, which import LibCST
(about 0.15 s of start-up). So the rules' needles are also kept as data, in the generated module
`tf24migrate.rules.trigger_table`, which `python -m tf24migrate.rules.prefilter` writes from the rules
themselves and `tests/test_prefilter.py` compares with them (it fails when the table is stale, as
ruff checks its generated code). That table answers `could_fire` for a `RuleSelection` that has not
loaded its rules; once they are loaded, their own needles are used. Chosen over a list kept by
hand (it drifted to the broadest strings, `tensorflow`, which every file of a TF repository holds),
and over reading the rules' modules without importing them (fragile, and as slow).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from tf24migrate.rules.base import Rule

Needle = Union[str, "re.Pattern[str]"]


class Probe:
    """One text, each needle looked for in it at most once (most rules share `tensorflow`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[Needle, bool] = {}

    def has(self, needle: Needle) -> bool:
        found = self._found.get(needle)
        if found is None:
            found = needle in self.text if isinstance(needle, str) else needle.search(self.text) is not None
            self._found[needle] = found
        return found

    def could_fire(
        self, requires: Iterable[Needle], triggers: Iterable[Needle], within: Probe | None = None
    ) -> bool:
        """Whether each of `requires` occurs in `within` (default: this text) and one of
        `triggers` in this text."""
        return all(map((within or self).has, requires)) and any(map(self.has, triggers))


def rules_that_could_fire(text: str, rules: Iterable[Rule], *, requires_in: str | None = None) -> list[Rule]:
    """The `rules` whose required needles all occur in `requires_in` (default: `text`) and one of
    whose triggers occurs in `text`."""
    probe = Probe(text)
    within = Probe(requires_in) if requires_in is not None else probe
    return [rule for rule in rules if probe.could_fire(rule.requires, rule.triggers, within)]


def could_fire(text: str, rules: Sequence[Rule]) -> bool:
    """Whether any of `rules` could fire in `text`. A `RuleSelection` that has not loaded its rules
    is answered from `trigger_table` without loading them (nor LibCST)."""
    from tf24migrate.rules.selection import RuleSelection

    probe = Probe(text)
    if isinstance(rules, RuleSelection) and rules._rules is None:
        return any(probe.could_fire(row.requires, row.triggers) for row in _rows_of(rules))
    return any(probe.could_fire(rule.requires, rule.triggers) for rule in rules)


def _rows_of(selection) -> Sequence:
    """The table's rows for `selection`'s rules (all rows when its selectors are not valid: loading
    the rules reports that)."""
    from tf24migrate.model.errors import UnknownRuleError
    from tf24migrate.rules.selection import select_rules
    from tf24migrate.rules.trigger_table import ROWS

    try:
        return select_rules(selection.select, selection.ignore, rules=ROWS)
    except UnknownRuleError:
        return ROWS


def pattern_of(needles: Iterable[Needle], *, words: bool = False) -> re.Pattern[str]:
    """One pattern matching where any of `needles` occurs (literals as whole words if `words`)."""
    literals = sorted({n for n in needles if isinstance(n, str)}, key=len, reverse=True)
    patterns = sorted({n.pattern for n in needles if not isinstance(n, str)})
    alternatives = "|".join(re.escape(literal) for literal in literals)
    if words and alternatives:
        alternatives = rf"\b(?:{alternatives})\b"
    return re.compile("|".join(filter(None, [alternatives, *(f"(?:{p})" for p in patterns)])) or r"(?!)")


def _quoted(text: str) -> str:  # as ruff formats it: double quotes unless the text holds one
    code = repr(text)
    return f'"{code[1:-1]}"' if '"' not in text and code.startswith("'") else code


def _needle_code(needle: Needle) -> str:
    if isinstance(needle, str):
        return _quoted(needle)
    raw = '"' not in needle.pattern and not needle.pattern.endswith("\\")
    return f're.compile(r"{needle.pattern}")' if raw else f"re.compile({_quoted(needle.pattern)})"


def _tuple_code(needles: Sequence[Needle]) -> str:
    return f"({', '.join(map(_needle_code, needles))}{',' if len(needles) == 1 else ''})"


def table_source() -> str:
    """The text of `tf24migrate/rules/trigger_table.py`, from the registered rules."""
    from tf24migrate.rules.selection import all_rules

    lines = [
        '"""Generated by `python -m tf24migrate.rules.prefilter` from the rules\' `requires` and `triggers`:',
        "do not edit (see `tf24migrate.rules.prefilter`; tests/test_prefilter.py fails when it is stale).",
        '"""',
        "",
        *(
            ["import re"]
            if any(not isinstance(n, str) for r in all_rules() for n in (*r.requires, *r.triggers))
            else []
        ),
        "from typing import NamedTuple",
        "",
        "",
        "class Row(NamedTuple):",
        "    code: str",
        "    name: str",
        "    default: bool",
        "    requires: tuple",
        "    triggers: tuple",
        "",
        "",
        "# fmt: off",
        "ROWS = (",
    ]
    for rule in all_rules():
        requires, triggers = map(_tuple_code, (rule.requires, rule.triggers))
        lines.append(
            f"    Row({_quoted(rule.code)}, {_quoted(rule.name)}, {rule.default}, {requires}, {triggers}),"
        )
    lines += [")", "# fmt: on"]
    return "\n".join(lines) + "\n"


def main() -> None:  # pragma: no cover - run by hand after changing a rule's needles
    import pathlib

    path = pathlib.Path(__file__).with_name("trigger_table.py")
    path.write_text(table_source(), encoding="utf-8")
    print(f"wrote {path.name}")


if __name__ == "__main__":  # pragma: no cover
    main()
