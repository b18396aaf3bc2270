"""What a rule is, and how a selection of rules is made from codes, names and prefixes.

A rule is one code, one name and one docstring (its documentation). It declares what must occur
in a file for it to possibly fire (`requires` and `triggers`, see `tf24migrate.prefilter`): the
engine parses only files holding them, and visits only the statements on lines holding a trigger
(or using a name bound on such a line), so every line a rule must look at has to hold one. It
handles the node
types it cares about with `leave_<NodeType>(ctx, original, updated)` methods, as a LibCST
transformer would. Rules never read files or print: they call `ctx.report(...)`.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from tf24migrate.errors import UnknownRuleError
from tf24migrate.findings import Fix, Severity

if TYPE_CHECKING:
    from tf24migrate.prefilter import Needle
    from tf24migrate.target import Target

# `Rule.requires` of rules that only match names reached through an import of TensorFlow.
IMPORTS_TENSORFLOW = ("tensorflow",)


class Rule:
    """Base class of every rule. Subclasses set the class attributes and the docstring."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    fix: ClassVar[Fix | None] = None  # the rule's usual fix kind, as listed in the catalogue
    severity: ClassVar[Severity] = Severity.WARNING
    default: ClassVar[bool] = True
    # One of these must occur in a file, and on every line the rule must see (`prefilter.Needle`s:
    # literal strings or compiled patterns); after changing them, run `python -m tf24migrate.prefilter`.
    triggers: ClassVar[tuple[Needle, ...]] = ()
    # Needles that must all occur in a file for the rule to run at all: a rule that matches only
    # names reached through TensorFlow imports requires "tensorflow" (see IMPORTS_TENSORFLOW).
    requires: ClassVar[tuple[Needle, ...]] = ()
    # Whether the rule also runs in code that guards the old API (try/except, hasattr, version).
    runs_in_shims: ClassVar[bool] = False
    # TensorFlow versions ("X.Y"), checked in the released wheels; the docstring says where. A fix
    # is applied only when the target is at least `new_since` (`tf24migrate.target`); an old
    # spelling that stops working (`old_removed`) within the supported versions is an error.
    new_since: ClassVar[str | None] = None  # the first release with the spelling the fix writes
    old_removed: ClassVar[str | None] = None  # the first release where the old spelling fails; None: works
    changed_in: ClassVar[str | None] = None  # the release whose change of behaviour the rule reports
    # A rule that reads the text (comments, docstrings) rather than the tree: the engine calls its
    # `scan_text(source, *, path, unsafe_fixes, declined, suppressed, target)` -> (source, findings)
    # before the other rules, and its fixes must keep every line where it is.
    reads_text: ClassVar[bool] = False

    @property
    def doc(self) -> str:
        return inspect.getdoc(self) or ""

    @property
    def summary(self) -> str:
        return self.doc.split("\n\n")[0].replace("\n", " ")

    def handlers(self) -> dict[str, object]:
        """`{"Call": bound leave_Call, ...}` for the node types this rule handles."""
        return {attr[len("leave_") :]: getattr(self, attr) for attr in _handler_names(type(self))}

    def __repr__(self) -> str:
        return f"<{self.code} {self.name}>"


@cache
def _handler_names(rule_class: type[Rule]) -> tuple[str, ...]:
    return tuple(
        attr for attr in dir(rule_class) if attr.startswith("leave_") and callable(getattr(rule_class, attr))
    )


class DataRule(Rule):
    """A rule defined by data (a table row) rather than by a class of its own.

    Subclasses implement the rewrite once; each instance carries its own code, name, doc and
    triggers, so rename-like rules stay rows in a table.
    """

    def __init__(
        self,
        *,
        code: str,
        name: str,
        doc: str,
        severity: Severity,
        fix: Fix | None = Fix.SAFE,
        default: bool = True,
        triggers: tuple[Needle, ...],
        requires: tuple[Needle, ...] = (),
        new_since: str | None = None,
        old_removed: str | None = None,
        changed_in: str | None = None,
    ) -> None:
        self.code = code
        self.name = name
        self._doc = inspect.cleandoc(doc)
        self.severity = severity
        self.fix = fix
        self.default = default
        self.triggers = triggers
        self.requires = requires
        self.new_since, self.old_removed, self.changed_in = new_since, old_removed, changed_in

    @property
    def doc(self) -> str:
        return self._doc


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every registered rule, sorted by code."""
    from tf24migrate.transforms import discover_rules

    return discover_rules()


class RuleSelection(Sequence[Rule]):
    """The rules chosen by `select` and `ignore` (as for `select_rules`), loaded on first use:
    a run where no file could match (`prefilter.could_fire`) never loads them, nor LibCST. `target` is the
    oldest TensorFlow their fixes must run on (a `tf24migrate.target.Target`; None: the default)."""

    def __init__(
        self,
        select: Iterable[str] | str | None = None,
        ignore: Iterable[str] | str | None = None,
        target: Target | None = None,
    ):
        self.select, self.ignore = _split(select), _split(ignore)
        self.target = target
        self._rules: tuple[Rule, ...] | None = None

    @property
    def hidden_notes(self) -> frozenset[str]:
        """The codes of the notes (`tf24migrate.notes`) that `ignore` hides."""
        return ignored_notes(self.ignore)

    @property
    def rules(self) -> tuple[Rule, ...]:
        if self._rules is None:
            self._rules = select_rules(self.select, self.ignore)
        return self._rules

    def check(self) -> None:
        """Raise `UnknownRuleError` for an unknown selector (which needs the rules loaded)."""
        if self.select or self.ignore:
            self.rules  # noqa: B018 - loading is the check

    def __getitem__(self, index):
        return self.rules[index]

    def __len__(self) -> int:
        return len(self.rules)

    def __reduce__(self):  # sent to worker processes as its selectors, not as rules
        return RuleSelection, (self.select, self.ignore, self.target)


def _matches(rule: Rule, selector: str) -> bool:
    selector = selector.strip()
    if selector.lower() == "all":
        return True
    if selector.upper().startswith("TF24"):
        return rule.code.startswith(selector.upper())
    return rule.name == selector.lower()


def _split(selectors: Iterable[str] | str | None) -> list[str]:
    if selectors is None:
        return []
    if isinstance(selectors, str):
        selectors = [selectors]
    return [part.strip() for item in selectors for part in item.split(",") if part.strip()]


def select_rules(
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    rules: Iterable[Rule] | None = None,
) -> tuple[Rule, ...]:
    """The rules chosen by `select` (default: the default rules) minus those in `ignore`.

    Selectors are codes (`TF24101`), names (`experimental-run-v2`), code prefixes (`TF241`) or
    `all`. An unknown selector raises `UnknownRuleError` naming it. `ignore` may also name notes
    (`tf24migrate.notes`, see `ignored_notes`); `select` may not.
    """
    from tf24migrate.notes import NOTES

    pool = tuple(rules) if rules is not None else all_rules()
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
    """The codes of the notes (`tf24migrate.notes`) that the `ignore` selectors hide."""
    from tf24migrate.notes import NOTES

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
