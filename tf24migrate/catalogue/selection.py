"""Which rules run: every registered rule, and a selection of them made from codes, names and
prefixes (`--select`, `--ignore`). What a rule is: `tf24migrate.rules.base`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Protocol, TypeVar, overload

from tf24migrate.model.errors import UnknownRuleError

if TYPE_CHECKING:  # a run whose files are all cached never loads the rules' modules
    from tf24migrate.catalogue.trigger_table import Row
    from tf24migrate.rules.base import Rule


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every registered rule, sorted by code."""
    from tf24migrate.transforms import discover_rules

    return discover_rules()


class RuleSelection(Sequence["Rule"]):
    """The rules chosen by `select` and `ignore` (as for `select_rules`), loaded on first use:
    a run where no file could match (`prefilter.could_fire`) never loads them, nor LibCST."""

    def __init__(self, select: Iterable[str] | str | None = None, ignore: Iterable[str] | str | None = None):
        self.select, self.ignore = _split(select), _split(ignore)
        self._rules: tuple[Rule, ...] | None = None

    @property
    def hidden_notes(self) -> frozenset[str]:
        """The codes of the notes (`tf24migrate.model.notes`) that `ignore` hides."""
        return ignored_notes(self.ignore)

    @property
    def rules(self) -> tuple[Rule, ...]:
        if self._rules is None:
            self._rules = select_rules(self.select, self.ignore)
        return self._rules

    def table_rows(self) -> tuple[Row, ...] | None:
        """The trigger table's rows of the rules chosen, while the rules are not loaded and the
        table is current (`generated.table_is_current`); else None. Rows select as the rules do
        (code, name, default), so the prefilter's screen, checking the selectors and naming the
        run's rules (`check`, the cache's `run_key`) load no rule, nor LibCST, which a run where no
        file could match never needs. Raises `UnknownRuleError` for an unknown selector."""
        from tf24migrate.catalogue.generated import table_is_current

        if self._rules is not None or not table_is_current():
            return None
        from tf24migrate.catalogue.trigger_table import ROWS

        return select_rules(self.select, self.ignore, rules=ROWS)

    def codes(self) -> tuple[str, ...]:
        """The codes of the rules chosen: from the table while it serves (`table_rows`)."""
        rows = self.table_rows()
        return tuple(rule.code for rule in (self.rules if rows is None else rows))

    def check(self) -> None:
        """Raise `UnknownRuleError` for an unknown selector."""
        if self.select or self.ignore:
            self.codes()

    def __getitem__(self, index):
        return self.rules[index]

    def __len__(self) -> int:
        return len(self.rules)

    def __reduce__(self):  # sent to worker processes as its selectors, not as rules
        return RuleSelection, (self.select, self.ignore)


def selected_codes(rules: Sequence[Rule]) -> tuple[str, ...]:
    """The codes of `rules`: a selection's without loading it (`RuleSelection.codes`)."""
    return rules.codes() if isinstance(rules, RuleSelection) else tuple(rule.code for rule in rules)


class Selectable(Protocol):
    """What selectors match: a rule, a note (`tf24migrate.model.notes`) or a row of the trigger table."""

    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def default(self) -> bool: ...


AnySelectable = TypeVar("AnySelectable", bound=Selectable)


def _matches(rule: Selectable, selector: str) -> bool:
    selector = selector.strip()
    if selector.lower() == "all":
        return True
    if selector.upper().startswith("TF24") or "TF24".startswith(selector.upper()):
        return rule.code.startswith(selector.upper())  # any prefix of a code, as ruff's
    return rule.name == selector.lower()


def _split(selectors: Iterable[str] | str | None) -> list[str]:
    if selectors is None:
        return []
    if isinstance(selectors, str):
        selectors = [selectors]
    return [part.strip() for item in selectors for part in item.split(",") if part.strip()]


@overload
def select_rules(
    select: Iterable[str] | str | None = None, ignore: Iterable[str] | str | None = None, rules: None = None
) -> tuple[Rule, ...]: ...


@overload
def select_rules(
    select: Iterable[str] | str | None, ignore: Iterable[str] | str | None, rules: Iterable[AnySelectable]
) -> tuple[AnySelectable, ...]: ...


def select_rules(
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    rules: Iterable[Selectable] | None = None,
) -> tuple[Selectable, ...]:
    """The rules chosen by `select` (default: the default rules) minus those in `ignore`.

    Selectors are codes (`TF24101`), names (`experimental-run-v2`), code prefixes (`TF241`) or
    `all`. An unknown selector raises `UnknownRuleError` naming it. `ignore` may also name notes
    (`tf24migrate.model.notes`, see `ignored_notes`); `select` may not.
    """
    from tf24migrate.model.notes import NOTES

    pool: tuple[Selectable, ...] = tuple(rules) if rules is not None else all_rules()
    selected_names = _split(select)
    ignored_names = _split(ignore)
    for selector in selected_names:
        if not any(_matches(rule, selector) for rule in pool) and any(_matches(n, selector) for n in NOTES):
            raise UnknownRuleError(
                f"{selector!r} names a note, not a rule: notes are reported whenever their case occurs "
                f"and cannot be selected; to hide one, use --ignore {selector}"
            )
    for selector in (*selected_names, *ignored_names):
        known = (*pool, *NOTES) if selector in ignored_names else pool
        if not any(_matches(rule, selector) for rule in known):
            raise UnknownRuleError(
                f"unknown rule selector {selector!r}: use a code (TF24101), a name "
                f"(experimental-run-v2), a code prefix (TF241) or 'all'; "
                f"`tf24migrate --list-rules` lists them"
            )
    if selected_names:
        chosen = [r for r in pool if any(_matches(r, s) for s in selected_names)]
    else:
        chosen = [r for r in pool if r.default]
    return tuple(r for r in chosen if not any(_matches(r, s) for s in ignored_names))


def ignored_notes(ignore: Iterable[str] | str | None) -> frozenset[str]:
    """The codes of the notes (`tf24migrate.model.notes`) that the `ignore` selectors hide."""
    from tf24migrate.model.notes import NOTES

    selectors = _split(ignore)
    return frozenset(note.code for note in NOTES if any(_matches(note, s) for s in selectors))


def find_rule(selector: str) -> Rule:
    """The one rule with this code or name."""
    for rule in all_rules():
        if rule.code == selector.strip().upper() or rule.name == selector.strip().lower():
            return rule
    raise UnknownRuleError(
        f"no rule is called {selector!r}: `tf24migrate --list-rules` lists every code and name"
    )
