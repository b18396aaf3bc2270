"""The text prefilter: which rules could fire in a text, and whether any could. The one place.

A rule declares what must occur in a text for it to possibly fire:
- `requires`: each of these occurs in the file (`"tensorflow"` for rules that match only names
  reached through an import of TensorFlow);
- `triggers`: one of these occurs. The engine also visits only the statements on lines holding
  a trigger of an active rule, or using a name bound on such a line (`pruning`, which asks
  `trigger_lines`); tests demand the same output without that plan.

Each is a `Needle`: a literal string, or a `Pattern` (`Pattern(r"\\bInput\\b", "Input")`) where a
literal would let through much more than the rule can match. A pattern names the literals every
match of it holds, and is looked for only on the lines holding one of them: `str.find` over a TF
source costs a hundredth of a regular expression that starts with `\\b` or a lookbehind, which
Python's `re` tries at every position. A rule's `requires` and `triggers` are the only inputs:
nothing else decides whether a text is parsed.

A run must turn away a file no rule can fire in without importing the rules, which import LibCST
(about 0.15 s of start-up). So the rules' needles are also kept as data, in the generated module
`tf24migrate.catalogue.trigger_table`, which `python -m tf24migrate.dev regen` writes from the rules
themselves and `tests/test_prefilter.py` compares with them (it fails when the table is stale, as
ruff checks its generated code). That table answers `could_fire` for a `RuleSelection` that has not
loaded its rules; once they are loaded, their own needles are used. The table records a digest of
the sources it was generated from (`generated.sources_digest`): where they changed since, it is
not used and the rules are loaded, so a stale table can make a run slower but never different.
Chosen over a list kept by hand (it drifted to the broadest strings, `tensorflow`, which every file
of a TF repository holds), and over reading the rules' modules without importing them (fragile, and
as slow).
"""

from __future__ import annotations

import bisect
import functools
import re
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from tf24migrate.catalogue.own_sources import is_tensorflow_source
from tf24migrate.rules.needles import (
    IMPORTS_PUBLIC_TENSORFLOW,
    AnyOf,
    Needle,
    Pattern,
    literals_of,
    quoted,
)
from tf24migrate.rules.text import line_starts, of_the_last_text

if TYPE_CHECKING:
    from tf24migrate.catalogue.selection import RuleSelection
    from tf24migrate.catalogue.trigger_table import Row
    from tf24migrate.rules.base import Rule


class Probe:
    """One text, each needle looked for in it at most once (most rules share `tensorflow`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[Needle, bool] = {}

    def has(self, needle: Needle) -> bool:
        found = self._found.get(needle)
        if found is None:
            if isinstance(needle, str):  # absent where a literal it holds is (`experimental`)
                found = all(map(self.has, _shorter_literals().get(needle, ()))) and needle in self.text
            elif isinstance(needle, AnyOf):  # each alternative once per text (most are shared)
                found = any(map(self.has, needle.alternatives))
            else:  # its literals once per text (shared with other needles), the regex if one is found
                found = any(map(self.has, needle.literals)) and needle.search(self.text)
            self._found[needle] = found
        return found

    def could_fire(
        self, requires: Sequence[Needle], triggers: Iterable[Needle], within: Probe | None = None
    ) -> bool:
        """Whether each of `requires` occurs in `within` (default: this text) and one of
        `triggers` in this text."""
        return self.passes(_split(requires), triggers, within or self)

    def passes(self, requires: _Split, triggers: Iterable[Needle], within: Probe) -> bool:
        """`could_fire`, with `requires` split as it is best checked (`_split`). What other rules
        require too goes first, as each needle is looked for once per text: most rules require an
        import of TensorFlow (`IMPORTS_PUBLIC_TENSORFLOW`: its literal `tensorflow`, then the
        pattern on the lines holding it; it rules out most rules in TensorFlow's own sources,
        whose imports are of `tensorflow.python`), the Functional-API rules their evidence (where
        it is absent, none of their own literals is looked for). Then the rule's own: the patterns
        that hold one literal, the literals, a literal of each other pattern, the triggers (a
        rule's own names, rare), and last those other patterns (on the lines of several
        literals)."""
        common, narrow, literals, broad = requires
        has = within.has
        return (
            all(map(has, common))
            and all(map(has, narrow))
            and all(map(has, literals))
            and all(map(within.has_literal_of, broad))
            and not any(map(within.lacks, broad))  # known from what other rules required
            and any(map(self.has, triggers))
            and all(map(has, broad))
        )

    def lacks(self, needle: Needle) -> bool:
        """Whether `needle` is known not to occur, from what was looked for already: itself, or each
        literal of a pattern (every match holds one), or each alternative of an `any_of` (a rule
        requiring an import of TensorFlow's public API or of `keras` is ruled out, in TensorFlow's
        own sources, without a look for any of its triggers)."""
        found = self._found.get(needle)
        if found is not None:
            return not found
        if isinstance(needle, AnyOf):
            return all(map(self.lacks, needle.alternatives))
        return isinstance(needle, Pattern) and all(self._found.get(n) is False for n in needle.literals)

    def has_literal_of(self, pattern: Pattern) -> bool:
        """Whether one of the literals every match of `pattern` holds occurs (each looked for once
        per text: `tensorflow` is the literal of most rules' `requires`); of an `any_of`, one of an
        alternative not known to be absent."""
        if isinstance(pattern, AnyOf):
            return any(
                self.has(n) if isinstance(n, str) else not self.lacks(n) and self.has_literal_of(n)
                for n in pattern.alternatives
            )
        return any(map(self.has, pattern.literals))


# The probe of a text: the last one made when it was of this very text (a file's run asks
# `could_fire`, then the engine which rules could), else a new one.
_probe_of = of_the_last_text(Probe)
_SHORTER: dict[str, tuple[str, ...]] | None = None


def _shorter_literals() -> dict[str, tuple[str, ...]]:
    """For each literal of the rules' needles, the other literals it holds (`experimental_hints`
    holds `experimental`): a text lacking one of those lacks it too, known without a scan of the
    text (most texts lack most triggers, and each absent one costs a scan of the whole text)."""
    global _SHORTER
    if _SHORTER is None:
        from tf24migrate.catalogue.trigger_table import ROWS

        literals = {
            literal
            for row in ROWS
            for needle in (*row.requires, *row.triggers)
            for literal in literals_of(needle)
        }
        shorter = {
            literal: tuple(other for other in literals if other != literal and other in literal)
            for literal in literals
        }
        _SHORTER = {literal: held for literal, held in shorter.items() if held}
    return _SHORTER


_Split = tuple[tuple[Needle, ...], tuple[Pattern, ...], tuple[str, ...], tuple[Pattern, ...]]
_SPLITS: dict[int, tuple] = {}  # by the id of a rule's `requires` (which the entry keeps alive)


def _split(requires: Sequence[Needle]) -> _Split:
    """A rule's `requires` as it is best checked (once per rule): those other rules require too,
    the most shared first (`_sharing`), then its own: the patterns that hold one literal, the
    literals, then the patterns of several literals."""
    entry = _SPLITS.get(id(requires))
    if entry is None or entry[0] is not requires:
        sharing = _sharing()
        common = tuple(sorted((n for n in requires if sharing[n] > 1), key=lambda n: -sharing[n]))
        own = [needle for needle in requires if needle not in common]
        patterns = [needle for needle in own if not isinstance(needle, str)]
        narrow = tuple(pattern for pattern in patterns if len(pattern.literals) == 1)
        broad = tuple(pattern for pattern in patterns if len(pattern.literals) > 1)
        literals = tuple(needle for needle in own if isinstance(needle, str))
        entry = _SPLITS[id(requires)] = (requires, (common, narrow, literals, broad))
    return entry[1]


@functools.cache
def _sharing() -> Counter[Needle]:
    """How many rules of the catalogue require each needle (from the trigger table: where it is
    stale, only the order of the looks changes, never a result)."""
    from tf24migrate.catalogue.trigger_table import ROWS

    return Counter(needle for row in ROWS for needle in set(row.requires))


class _Screen:
    """Rules as the question whether any of them could fire in a text is best answered: those
    that require the same needles in one group, with the triggers of all of them (most rules
    require only an import of TensorFlow: the default rules make 19 groups of 46 rules)."""

    def __init__(self, rules: Iterable[Rule | Row]) -> None:
        groups: dict[tuple[Needle, ...], dict[Needle, None]] = {}
        own: dict[tuple[Needle, ...], dict[Needle, None]] = {}  # without the rules reading internals
        for rule in rules:
            if not rule.reads_internals:
                own.setdefault(tuple(rule.requires), {}).update(dict.fromkeys(rule.triggers))
            groups.setdefault(tuple(rule.requires), {}).update(dict.fromkeys(rule.triggers))
        self.groups = [(_split(requires), tuple(triggers)) for requires, triggers in groups.items()]
        self.own_groups = [(_split(requires), tuple(triggers)) for requires, triggers in own.items()]

    def passes(self, probe: Probe, *, own_source: bool = False) -> bool:
        """Whether a rule could fire in `probe`'s text; in TensorFlow's own source (`own_source`),
        a rule that reads internals (`Rule.reads_internals`) does not count."""
        groups = self.own_groups if own_source else self.groups
        return any(probe.passes(requires, triggers, probe) for requires, triggers in groups)


# The screen of each selection, as long as the selection lives (the command's, the server's).
_SELECTION_SCREENS: weakref.WeakKeyDictionary[RuleSelection, _Screen] = weakref.WeakKeyDictionary()
_SCREENS: dict[tuple[Rule, ...], _Screen] = {}  # other sequences of rules: a few per process
_MAX_SCREENS = 64  # a caller passing ever other subsets (a long-lived server) is not a leak


def _screen(rules: Sequence[Rule]) -> _Screen:
    """The screen of `rules`, made once per selection. A `RuleSelection` that has not loaded its
    rules is answered from `trigger_table`'s rows without loading them (nor LibCST)."""
    from tf24migrate.catalogue.selection import RuleSelection

    if isinstance(rules, RuleSelection):
        screen = _SELECTION_SCREENS.get(rules)
        if screen is None:
            from tf24migrate.catalogue.trigger_table import ROWS
            from tf24migrate.model.errors import UnknownRuleError

            try:
                rows = rules.table_rows()
            except UnknownRuleError:  # every row: loading the rules reports it
                rows = ROWS
            screen = _SELECTION_SCREENS[rules] = _Screen(rules if rows is None else rows)
        return screen
    key = tuple(rules)
    screen = _SCREENS.get(key)
    if screen is None:
        if len(_SCREENS) >= _MAX_SCREENS:
            _SCREENS.clear()
        screen = _SCREENS[key] = _Screen(key)
    return screen


def rules_that_could_fire(
    text: str, rules: Iterable[Rule], *, requires_in: str | None = None, path: str | None = None
) -> list[Rule]:
    """The `rules` whose required needles all occur in `requires_in` (default: `text`) and one of
    whose triggers occurs in `text`; in TensorFlow's own source (the file at `path`,
    `own_sources`), not those that read internals (`Rule.reads_internals`)."""
    probe = _probe_of(text)
    within = Probe(requires_in) if requires_in is not None else probe
    own = is_tensorflow_source(path)
    return [
        rule
        for rule in rules
        if not (own and rule.reads_internals) and probe.could_fire(rule.requires, rule.triggers, within)
    ]


def without_public_imports(text: str, rules: Iterable[Rule]) -> list[Rule]:
    """The `rules` that could still fire in `text` once it is known to import nothing of
    TensorFlow's public API (`IMPORTS_PUBLIC_TENSORFLOW` found only in prose or a docstring's
    example, which Python's `ast` tells): those that require no such import, or for which another
    alternative of an `any_of` occurs."""
    probe = Probe(text)

    def satisfied(needle: Needle) -> bool:
        if needle == IMPORTS_PUBLIC_TENSORFLOW:
            return False
        if isinstance(needle, AnyOf) and IMPORTS_PUBLIC_TENSORFLOW in needle.alternatives:
            return any(satisfied(n) and probe.has(n) for n in needle.alternatives)
        return True  # found already: the rule passed the prefilter

    return [rule for rule in rules if all(map(satisfied, rule.requires))]


def needs_public_imports(rule: Rule) -> bool:
    """Whether `rule`'s `requires` can only be met, or also be met, by an import of TensorFlow's
    public API (`without_public_imports` may drop it)."""
    return any(
        needle == IMPORTS_PUBLIC_TENSORFLOW
        or (isinstance(needle, AnyOf) and IMPORTS_PUBLIC_TENSORFLOW in needle.alternatives)
        for needle in rule.requires
    )


def could_fire(text: str, rules: Sequence[Rule], *, path: str | None = None) -> bool:
    """Whether any of `rules` could fire in `text`, the file at `path`: where that is TensorFlow's
    own source (`own_sources`), the rules that read internals do not count. A `RuleSelection`
    that has not loaded its rules is answered from `trigger_table` without loading them (nor
    LibCST)."""
    return _screen(rules).passes(_probe_of(text), own_source=is_tensorflow_source(path))


def pattern_of(literals: Iterable[str], *, words: bool = False) -> re.Pattern[str]:
    """One pattern matching where any of `literals` occurs; with `words`, where one of them (names)
    ends a word. Whether the match also starts one is the caller's to check (`trigger_lines`):
    a leading `\\b` keeps Python's `re` from skipping to the characters that can start a match, and
    made the search 2-17 times slower."""
    alternatives = "|".join(re.escape(literal) for literal in sorted(set(literals), key=len, reverse=True))
    if words and alternatives:
        alternatives = rf"(?:{alternatives})\b"
    return re.compile(alternatives or r"(?!)")


def matches(text: str, needles: Iterable[Needle]) -> Iterator[re.Match[str]]:
    """Where any of `needles` occurs in `text` (in no order)."""
    needles = list(needles)
    literals = [needle for needle in needles if isinstance(needle, str)]
    if literals:
        yield from pattern_of(literals).finditer(text)
    for needle in needles:
        if not isinstance(needle, str):
            yield from needle.finditer(text)


def trigger_lines(
    source: str,
    triggers: Iterable[Needle],
    *,
    words: bool = False,
    starts: Sequence[int] | None = None,
    lines: tuple[int, int] | None = None,
) -> set[int]:
    """1-based numbers of the lines on which any of `triggers` occurs (literals as whole words if
    `words`). `starts`: `line_starts(source)`, when the caller has it. `lines`: the first and last
    line to search; default: all."""
    if starts is None:
        starts = line_starts(source)
    triggers = list(triggers)
    literals = [t for t in triggers if isinstance(t, str)]
    span = (0, len(source)) if lines is None else _span_of(lines, starts, len(source))
    found = (
        _lines_matching(pattern_of(literals, words=words), source, starts, words, span) if literals else set()
    )
    if not words:  # names are literals
        for needle in triggers:
            if not isinstance(needle, str):
                found.update(
                    bisect.bisect_right(starts, match.start())
                    for match in needle.finditer(source)
                    if span[0] <= match.start() < span[1]
                )
    return found


def _span_of(lines: tuple[int, int], starts: Sequence[int], size: int) -> tuple[int, int]:
    """Where lines `first` to `last` (1-based) are in a source of `size` characters."""
    first, last = lines
    return starts[first - 1], starts[last] if last < len(starts) else size


def _lines_matching(
    regex: re.Pattern[str],
    source: str,
    starts: Sequence[int],
    words: bool = False,
    span: tuple[int, int] | None = None,
) -> set[int]:
    """The lines where `regex` (which matches within a line) matches, with `words` only where the
    match starts a word, within `span` of `source` (default: all of it): once found on a line,
    the search goes on from the next line (a common name is used many times a line)."""
    lines: set[int] = set()
    position, end = span or (0, len(source))
    count = len(starts)
    while (match := regex.search(source, position, end)) is not None:
        at = match.start()
        if words and at and (source[at - 1].isalnum() or source[at - 1] == "_"):  # as `\b` reads
            position = at + 1
            continue
        line = bisect.bisect_right(starts, at)
        lines.add(line)
        if line >= count:
            break
        position = max(starts[line], match.end(), position + 1)
    return lines


def _needle_code(needle: Needle) -> str:
    return quoted(needle) if isinstance(needle, str) else repr(needle)


def _tuple_code(needles: Sequence[Needle]) -> str:
    return f"({', '.join(map(_needle_code, needles))}{',' if len(needles) == 1 else ''})"


def _needle_imports(rules: Iterable[Rule]) -> list[str]:
    """The import of the needle classes and functions the table's rows are written with, if any."""
    names: set[str] = set()

    def add(needle: Needle) -> None:
        if isinstance(needle, AnyOf):
            names.add("any_of")
            for alternative in needle.alternatives:
                add(alternative)
        elif not isinstance(needle, str):
            names.add(type(needle).__name__)

    for rule in rules:
        for needle in (*rule.requires, *rule.triggers):
            add(needle)
    if not names:
        return []
    line = f"from tf24migrate.rules.needles import {', '.join(sorted(names))}"
    if len(line) <= 110:  # the line length of `ruff format`, which the table passes unchanged
        return ["", line]
    return ["", "from tf24migrate.rules.needles import (", *(f"    {name}," for name in sorted(names)), ")"]


def table_source() -> str:
    """The text of `tf24migrate/catalogue/trigger_table.py`, from the registered rules."""
    from tf24migrate.catalogue.generated import sources_digest
    from tf24migrate.catalogue.selection import all_rules

    lines = [
        '"""Generated by `python -m tf24migrate.dev regen` from the rules\' `requires` and `triggers`:',
        "do not edit (see `tf24migrate.catalogue.prefilter`; tests/test_prefilter.py fails when it is stale).",
        '"""',
        "",
        "from typing import NamedTuple",
        *_needle_imports(all_rules()),
        "",
        "# The digest of the sources this table was generated from: see `catalogue.generated`.",
        f"SOURCES_DIGEST = {quoted(sources_digest())}",
        "",
        "",
        "class Row(NamedTuple):",
        "    code: str",
        "    name: str",
        "    default: bool",
        "    requires: tuple",
        "    triggers: tuple",
        "    reads_internals: bool = False",
        "",
        "",
        "# fmt: off",
        "ROWS = (",
    ]
    for rule in all_rules():
        requires, triggers = map(_tuple_code, (rule.requires, rule.triggers))
        internals = ", True" if rule.reads_internals else ""
        lines.append(
            f"    Row({quoted(rule.code)}, {quoted(rule.name)}, {rule.default}, {requires}, {triggers}{internals}),"
        )
    lines += [")", "# fmt: on"]
    return "\n".join(lines) + "\n"
