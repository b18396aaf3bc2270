"""`TextReports`: the `TextContext` (`tf24migrate.rules.context`) of one rule over one text.

Rules that read comments, docstrings or a notebook's Markdown report through it, as tree rules
report through `FileContext`; it decides whether each fix is applied (the target version, the
unsafe-fix setting, the declined findings) and drops findings on suppressed lines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection

from tf24migrate.model.findings import Finding, Fix, Span
from tf24migrate.model.target import Target
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import TextContext


class TextReports(TextContext):
    """The findings of `rule` over one text, in `findings`. See the module docstring."""

    def __init__(
        self,
        rule: Rule,
        *,
        path: str | None,
        target: Target,
        unsafe_fixes: bool,
        declined: Collection[Finding],
        suppressed: Callable[[Finding], bool] | None = None,
    ) -> None:
        self.rule = rule
        self.findings: list[Finding] = []
        self._path = path
        self._target = target
        # A fix whose new spelling is newer than the target is reported, never applied.
        self._fixes_allowed = target.allows(rule.new_since)
        self._unsafe_fixes = unsafe_fixes
        self._declined = {(f.code, f.line, f.column) for f in declined}
        self._suppressed = suppressed

    def report(self, span: Span, message: str, *, replacement: str | None = None) -> bool:
        rule = self.rule
        fix = (rule.fix or Fix.SAFE) if replacement is not None else None
        finding = rule.finding(span, message, target=self._target, fix=fix, path=self._path)
        if self._suppressed is not None and self._suppressed(finding):
            return False
        applied = (
            (fix is Fix.SAFE or (fix is Fix.UNSAFE and self._unsafe_fixes))
            and self._fixes_allowed
            and (rule.code, finding.line, finding.column) not in self._declined
        )
        if applied:
            finding = dataclasses.replace(finding, applied=True)
        elif fix is Fix.UNSAFE:
            finding = dataclasses.replace(
                finding, message=f"{message} Unsafe fix (apply with --unsafe-fixes): `{replacement}`"
            )
        self.findings.append(finding)
        return applied
