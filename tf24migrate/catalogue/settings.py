"""`Settings`: what a run migrates with, as one value passed from the command line (or the
library call) down to each file's engine pass."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tf24migrate.catalogue.selection import RuleSelection
from tf24migrate.model.findings import Finding
from tf24migrate.model.target import DEFAULT_TARGET, Target

if TYPE_CHECKING:  # a run whose files are all cached never loads the rules' modules
    from tf24migrate.rules.base import Rule


@dataclass(frozen=True)
class Settings:
    """The rules to run (a `RuleSelection` loads them on first use), the oldest TensorFlow their
    fixes must run on (a fix needing a newer one is reported, not applied), whether unsafe fixes
    are applied, the findings of the file at hand whose fixes are declined (only reported:
    `--interactive`), the codes of the notes (`tf24migrate.model.notes`) left out, and the names
    of the file at hand that other files import from it, each with where (`run.importers`)."""

    rules: Sequence[Rule]
    target: Target = DEFAULT_TARGET
    unsafe_fixes: bool = False
    declined: tuple[Finding, ...] = ()
    hidden_notes: frozenset[str] = frozenset()
    imported_elsewhere: tuple[tuple[str, str], ...] = ()

    @classmethod
    def selected(
        cls,
        select: Iterable[str] | str | None = None,
        ignore: Iterable[str] | str | None = None,
        *,
        target: Target = DEFAULT_TARGET,
        unsafe_fixes: bool = False,
    ) -> Settings:
        """The settings of the rules chosen by `select` and `ignore` (as `--select`, `--ignore`:
        `ignore` may also hide notes). Raises `UnknownRuleError` for an unknown selector."""
        rules = RuleSelection(select, ignore)
        rules.check()
        return cls(rules, target, unsafe_fixes, hidden_notes=rules.hidden_notes)

    def declining(self, findings: Iterable[Finding]) -> Settings:
        """These settings with the fixes of `findings` declined (instead of those declined here)."""
        return dataclasses.replace(self, declined=tuple(findings))

    def importing(self, names: Mapping[str, str]) -> Settings:
        """These settings for a file whose module-level `names` other files import: `{name: where
        (`train.py` line 3)}`. A fix that would rename, remove or rebind such a name to another
        object is not applied, and says where (`run.importers`)."""
        return dataclasses.replace(self, imported_elsewhere=tuple(sorted(names.items())))
