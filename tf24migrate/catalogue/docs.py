"""The rule reference (docs/rules.md), rendered from the rules themselves.

Regenerate with `python -m tf24migrate.dev regen`; a test fails when it is stale.
"""

from __future__ import annotations

from collections.abc import Iterable

from tf24migrate.catalogue.entries import versions_section
from tf24migrate.catalogue.evidence import EXECUTED_ON, executed, executed_column
from tf24migrate.model.target import versions_line
from tf24migrate.rules.base import Rule


def _fix(rule: Rule) -> str:
    return rule.fix.value if rule.fix else "none"


def render_reference(rules: Iterable[Rule]) -> str:
    rules = list(rules)
    lines = [
        "# Rule reference",
        "",
        "<!-- Generated from the rules' docstrings by `python -m tf24migrate.dev regen`. "
        "Do not edit by hand. -->",
        "",
        "Fix kinds: **safe** fixes are applied by default; **unsafe** ones only with `--unsafe-fixes` "
        "(otherwise the finding shows the rewrite); **none** means report only. A safe fix that would "
        "drop a comment inside the code it rewrites is unsafe at that site, as ruff's are (comments of an "
        "argument the fix removes go with it). Opt-in rules run only "
        "when selected (`--select CODE`, a prefix, or `all`).",
        "",
        "TensorFlow versions: a fix is applied only when the target (`--target-version`, or the "
        "project's TensorFlow requirement) is at least its **new since** version; an old spelling "
        "that stops working (**old removed**) within the supported versions is an error. **Executed**: "
        f"the rule's program ran on TensorFlow {' and '.join(EXECUTED_ON)} and showed these versions "
        "(tests/integration/rule_programs/); otherwise they were read in the released wheels or the "
        "release notes, and the rule's section says why.",
        "",
        "| code | name | fix | severity | default | new since | old removed | executed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {_fix(r)} | {r.severity.value} | "
        f"{'yes' if r.default else 'opt-in'} | {r.new_since or '-'} | {r.old_removed or '-'} | "
        f"{executed_column(r.code)} |"
        for r in rules
    ]
    for rule in rules:
        body, checked = versions_section(rule.doc)
        lines += [
            "",
            f"## {rule.code} {rule.name}",
            "",
            f"Fix: {_fix(rule)}. Severity: {rule.severity.value}. "
            f"Default: {'yes' if rule.default else 'opt-in'}.",
            "",
            f"TensorFlow versions: {versions_line(rule.versions)}{f' Checked: {checked}' if checked else ''}"
            f" Runtime: {executed(rule.code)}.",
            "",
            body,
        ]
    return "\n".join(lines) + "\n"
