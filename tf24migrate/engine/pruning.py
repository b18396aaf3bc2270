"""Skipping the statements that cannot matter, so LibCST parses and walks only the few that can.

A LibCST parse and traversal cost far more than Python's own parser. `ast` knows each statement's
lines, so the engine lists the statements in document order with whether their lines hold a
trigger string of an active rule (or a name bound on such a line; for a rule that traces back,
`Rule.traces`, a site that uses a name bound from its evidence, and the statements that bound
it). It keeps of each statement only its class, its position and the names it binds, in columns
(arrays of ints and bytes), so that a long source is read one chunk of its `ast` at a time
(`rules.text.python_chunks_with_offsets`), each dropped before the next, and the plan costs tens
of bytes a statement. A statement with no trigger that has its lines to itself is left out of the
text LibCST parses, one marker line in its place (`Sparse`); the others without a trigger are
parsed but not walked. The transformer walks LibCST's statements in the plan's order and binds the
names of each skipped one from its `ast` node. If the two orders ever disagree, the engine parses
the whole source and walks it without a plan, so pruning can change speed but never results.
"""

from __future__ import annotations

import ast
import bisect
import itertools
import re
import textwrap
from array import array
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

import libcst as cst

from tf24migrate.catalogue.prefilter import Needle, matches, pattern_of
from tf24migrate.engine.nesting import too_deep
from tf24migrate.engine.sparse import MARKER_PREFIX, Sparse
from tf24migrate.rules.text import line_starts, python_chunks_with_offsets

_MAX_FOLLOW_ROUNDS = 3
_CONTINUATION = re.compile(r"\\(?:\r\n?|\n)[ \t\f]*")  # a backslash, its line end, the indentation after
_WORD = re.compile(r"[^\W\d]\w*")  # a name (`_traced_back`), or a word that is not one
_WORTH_SKIPPING = 48  # characters: a shorter statement costs LibCST about what its marker does
# What may follow a statement on its last line for the line to be its own.
_REST_OF_LAST_LINE = re.compile(rb"[ \t\f]*;?[ \t\f]*(?:#[^\r\n]*)?(?:\r\n?|\n)?")
_BLANK_OR_COMMENT_LINES = re.compile(r"(?:[ \t\f]*(?:#[^\r\n]*)?(?:\r\n?|\n))*")
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# LibCST compound statement -> the ast classes it corresponds to
_KINDS = {
    "FunctionDef": (ast.FunctionDef, ast.AsyncFunctionDef),
    "ClassDef": (ast.ClassDef,),
    "If": (ast.If,),
    "For": (ast.For, ast.AsyncFor),
    "While": (ast.While,),
    "With": (ast.With, ast.AsyncWith),
    "Try": (ast.Try,),
    "TryStar": (getattr(ast, "TryStar", ast.Try),),
    "Match": (getattr(ast, "Match", ast.If),),
}


_COMPOUND_AST = tuple(kind for kinds in _KINDS.values() for kind in kinds)
# The fields of each compound statement holding statements, in document order; of those, the
# clauses (`except`, `case`) each hold a body.
_CLAUSES = ("handlers", "cases")
_BODIES = {
    kind: tuple(f for f in ("body", "handlers", "orelse", "finalbody", "cases") if f in kind._fields)
    for kind in _COMPOUND_AST
}
# The compound statements whose bindings are their targets', then their statements' (those of an
# except clause, with its name, as bound in a handler), when no `:=` can bind in a header.
_BINDS_BY_PARTS = frozenset(
    kind for name in ("If", "For", "While", "With", "Try", "TryStar") for kind in _KINDS[name]
)


Bindings = tuple[tuple[str, str | None, bool], ...]  # what `bindings` yields

# The ast classes of the statements planned, by index (the plan keeps a byte per statement).
_CLASSES: list[type[ast.stmt]] = []
_CLASS_INDEX: dict[type[ast.stmt], int] = {}
# Bits of `StatementPlan._flags`.
_TOP_LEVEL, _DECORATED, _DOCSTRING = 1, 2, 4


def _class_index(kind: type[ast.stmt]) -> int:
    index = _CLASS_INDEX.get(kind)
    if index is None:
        index = _CLASS_INDEX[kind] = len(_CLASSES)
        _CLASSES.append(kind)
    return index


@dataclass(frozen=True, slots=True)
class Entry:
    """One statement of a plan, as `StatementPlan.entries` shows it (the plan itself keeps columns)."""

    node: ast.stmt  # an empty node of the statement's class
    start: int  # first line, decorators included
    end: int
    top_level: bool
    binds: Bindings  # the names it binds in its scope, outside any except handler (`bindings`)
    col_offset: int  # of its first line that is not a decorator's, in UTF-8 bytes
    end_col_offset: int
    decorated: bool
    docstring: bool  # the module's
    interesting: bool
    descendants: int
    marker: str | None  # the name standing for it in the source LibCST parses (`Sparse`)


def trigger_lines(
    source: str, triggers: Iterable[Needle], *, words: bool = False, starts: Sequence[int] | None = None
) -> set[int]:
    """1-based numbers of the lines on which any of `triggers` occurs (literals as whole words if
    `words`). `starts`: `line_starts(source)`, when the caller has it."""
    if starts is None:
        starts = line_starts(source)
    triggers = list(triggers)
    literals = [t for t in triggers if isinstance(t, str)]
    lines = _lines_matching(pattern_of(literals, words=words), source, starts, words) if literals else set()
    if not words:  # names are literals
        for needle in triggers:
            if not isinstance(needle, str):
                lines.update(bisect.bisect_right(starts, match.start()) for match in needle.finditer(source))
    return lines


def _lines_matching(
    regex: re.Pattern[str], source: str, starts: Sequence[int], words: bool = False
) -> set[int]:
    """The lines where `regex` (which matches within a line) matches, with `words` only where the
    match starts a word: once found on a line, the search goes on from the next line (a common
    name is used many times a line)."""
    lines: set[int] = set()
    position, count = 0, len(starts)
    while (match := regex.search(source, position)) is not None:
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


class StatementPlan:
    """The statements of a module in document order, each marked interesting or not.

    A long source has millions of statements, so the plan keeps columns rather than an object per
    statement: arrays of ints (lines, columns, descendants), bytes (class, flags, interesting) and
    an index into a table of the distinct bindings; `entries` shows them as `Entry` objects."""

    def __init__(self, tree: ast.Module, lines: set[int], *, walrus: bool = True, capacity: int = 16) -> None:
        self.index = 0
        self.broken = False
        self.deep: int | None = None  # the first line of a statement nesting too deep (`nesting`)
        self._walrus = walrus  # whether the source holds `:=` (see `bindings`)
        self._class = bytearray()  # index in `_CLASSES`
        self._start = array("i")  # first line, decorators included
        self._end = array("i")
        self._column = array("i")  # of its first line that is not a decorator's, in UTF-8 bytes
        self._end_column = array("i")
        self._descendants = array("i")
        self._flags = bytearray()  # _TOP_LEVEL | _DECORATED | _DOCSTRING
        self._interesting = bytearray()
        self._binds = array("i")  # index in `_bindings`
        # Each distinct bindings once (most statements: `()`); a name stands for `((name, None, False),)`.
        self._bindings: list[Bindings | str] = [()]
        self._by_name: dict[str, int] = {}  # name -> its index in `_bindings` (while adding)
        # A statement left out of the source LibCST parses: the name standing for it (`Sparse`), and
        # how many entries it and the siblings after it that it also stands for are, descendants too.
        self._markers: dict[int, str] = {}
        self._covers: dict[int, int] = {}
        # A `for` loop's: the names its target binds, and the last line of its header (few: a dict).
        self._loops: dict[int, tuple[tuple[str, ...], int]] = {}
        # The compound statements (few: most statements of a long source are simple), in order, and
        # the last line of each one's header (`def f(x):`, `if a and b:`), as two arrays.
        self._compounds = array("i")
        self._header_ends = array("i")
        # The columns are filled up to `_count` and grown by doubling while the statements are added:
        # one element at a time, their growth would leave most of their old copies in the C heap.
        self._count = 0
        self._reserve(capacity)
        self._add(tree.body, top_level=True)
        self._finish()
        self.mark(lines)

    def _columns(self) -> tuple[array[int] | bytearray, ...]:
        """Those filled while statements are added (`_interesting` is made by `mark`)."""
        return (
            self._class,
            self._start,
            self._end,
            self._column,
            self._end_column,
            self._descendants,
            self._flags,
            self._binds,
        )

    def _reserve(self, capacity: int) -> None:
        for column in self._columns():
            missing = capacity - len(column)
            if missing > 0:
                column.extend(
                    bytes(missing) if isinstance(column, bytearray) else array("i", bytes(4 * missing))
                )

    def _finish(self) -> None:
        """The columns cut to the statements added."""
        for column in self._columns():
            del column[self._count :]
        self._interesting = bytearray(self._count)
        self._by_name = {}

    @property
    def top_lines(self) -> array[int]:
        """The first line of each top-level statement (made when asked: the engine asks once)."""
        top_level = (flags & _TOP_LEVEL for flags in self._flags)
        return array("i", itertools.compress(self._start, top_level))

    @property
    def entries(self) -> list[Entry]:
        """Every statement as an `Entry` (to read the plan; the engine reads the columns)."""
        return [self._entry(index) for index in range(len(self._start))]

    def _entry(self, index: int) -> Entry:
        flags = self._flags[index]
        return Entry(
            _shape(_CLASSES[self._class[index]]),
            self._start[index],
            self._end[index],
            bool(flags & _TOP_LEVEL),
            self._binds_at(index),
            self._column[index],
            self._end_column[index],
            bool(flags & _DECORATED),
            bool(flags & _DOCSTRING),
            bool(self._interesting[index]),
            self._descendants[index],
            self._markers.get(index),
        )

    @classmethod
    def build(
        cls,
        source: str,
        triggers: Iterable[Needle],
        followed: Iterable[Needle] | None = None,
        traced: Iterable[Needle] = (),
        traced_from: Iterable[Needle] = (),
        through_calls: Iterable[Needle] = (),
        in_lambdas: Iterable[Needle] = (),
    ) -> StatementPlan | None:
        """The plan for `source`, or None when Python's parser cannot read it.

        A name bound by an interesting simple statement on a line holding one of `followed` (the
        triggers whose names rules follow, `Rule.follows`; default: all of `triggers`),
        as `from ... import multi_gpu_model as par`, `device = "/device:XLA_GPU:0"` or
        `x = tf.keras.Input(...)`, or by the target of a `for` loop whose header holds one
        (`for out in model.outputs:`), makes the lines that use it interesting too (and so on), so
        rules that follow a value through a name see both ends.

        `traced` are triggers whose lines matter only with a value from a line holding one of
        `traced_from` (`Rule.traces` and the `follows` of their rules): such a statement is
        interesting only when it uses a name followed from there (or holds one of `traced_from`),
        and then so are the statements that bound the names it uses, back to where they were
        followed from (`_traced_back`), but not the other lines using them. Those of `traced`
        also in `through_calls` may get their value through a parameter of their function: from
        its calls (`Rule.traces_parameters`). A statement whose sites are all of `in_lambdas` (those
        of `traced` that matter only in a lambda, `Rule.traces_lambdas`) is judged by the names the
        bodies of its lambdas use, not by all it uses.

        `deep` is set, and no statement is listed after it, when a statement nests too deep."""
        capacity = source.count("\n") + 1  # about as many statements as lines: grown if more
        plan = cls(ast.Module(body=[], type_ignores=[]), set(), walrus=":=" in source, capacity=0)
        plan._reserve(capacity)
        starts = line_starts(source)
        try:
            for before, tree in python_chunks_with_offsets(source):  # read to the end: syntax errors first
                plan.deep = plan.deep or too_deep(tree, starts, before)
                if plan.deep is None:
                    plan._add(tree.body, top_level=True, lines_before=before)
                del tree  # before the next chunk is parsed
        except (SyntaxError, ValueError, RecursionError):
            return None
        finally:
            plan._finish()
        if plan.deep is not None:
            return plan
        lines = trigger_lines(source, triggers, starts=starts)
        sources = lines if followed is None else trigger_lines(source, followed, starts=starts)
        lines |= plan._follow(source, sources, _MAX_FOLLOW_ROUNDS, starts)[0]
        traced = list(traced)
        if traced:
            only_in_lambdas = set(in_lambdas)
            others = [t for t in traced if t not in only_in_lambdas]
            sites = trigger_lines(source, others, starts=starts) if others else set()
            lambda_sites = trigger_lines(source, only_in_lambdas, starts=starts) - sites
            through = trigger_lines(source, through_calls, starts=starts) if through_calls else set()
            lines |= plan._traced_back(
                source, sites | lambda_sites, list(traced_from), starts, through, lambda_sites
            )
        plan.mark(lines)
        return plan

    def _follow(
        self, source: str, sources: set[int], rounds: int, starts: Sequence[int]
    ) -> tuple[set[int], dict[str, list[int]]]:
        """Follow the names bound on the lines `sources`, for `rounds` rounds: those a simple
        statement spanning one of them binds, or the target of a `for` loop whose header holds one
        (`for out in model.outputs:`: `out`, not what its body binds), then those a statement using
        such a name binds, and so on. Returns the lines using the names followed, and for each name
        the statements (or loops) that bound it there."""
        if not sources:
            return set(), {}
        ends = self._ends(loops_only=True)
        ordered = sorted(sources)
        binders: dict[str, list[int]] = {}
        using: set[int] = set()
        followed: set[str] = set()
        harvested: set[int] = set()  # statements whose bindings were followed already
        for _ in range(rounds):
            names: set[str] = set()
            spanning = map(_spans_any, self._start, ends, itertools.repeat(ordered))
            for index in itertools.compress(range(len(ends)), spanning):
                if index in harvested:
                    continue
                harvested.add(index)
                loop = self._loops.get(index)
                bound = loop[0] if loop is not None else [name for name, _, _ in self._binds_at(index)]
                for name in bound:
                    binders.setdefault(name, []).append(index)
                names.update(bound)
            names -= followed
            if not names:
                break
            followed |= names
            found = trigger_lines(source, names, words=True, starts=starts)
            using |= found
            ordered = sorted({*ordered, *found})
        return using, binders

    def _ends(self, *, loops_only: bool = False) -> array[int]:
        """The last line of each statement, but of a compound statement its header's (`def f(x):`,
        `if a and b:`). With `loops_only`, a `for` loop's header's and 0 for the other compound
        statements, whose bindings are their statements' (`_follow`)."""
        ends = array("i", self._end)
        for index, header_end in zip(self._compounds, self._header_ends, strict=True):
            ends[index] = header_end if not loops_only or index in self._loops else 0
        return ends

    def _is_compound(self, index: int) -> bool:
        at = bisect.bisect_left(self._compounds, index)
        return at < len(self._compounds) and self._compounds[at] == index

    def _spanning(self, lines: set[int]) -> Iterator[tuple[int, int, int, bool]]:
        """(index, first line, last line, whether a header) of each simple statement spanning one
        of `lines`, and of each compound statement whose header spans one (the header's lines)."""
        ends = self._ends()
        spanning = map(_spans_any, self._start, ends, itertools.repeat(sorted(lines)))
        for index in itertools.compress(range(len(ends)), spanning):
            yield index, self._start[index], ends[index], self._is_compound(index)

    def _scopes(self) -> array[int]:
        """For each statement, the innermost function or class around it (its index), or -1."""
        scopes = array("i", bytes(4 * len(self._start)))
        around: list[int] = []  # the functions and classes around the statement, innermost last
        for index, kind in enumerate(self._class):
            while around and index > around[-1] + self._descendants[around[-1]]:
                around.pop()
            scopes[index] = around[-1] if around else -1
            if _CLASSES[kind] in _DEFINITIONS:
                around.append(index)
        return scopes

    def _traced_back(
        self,
        source: str,
        sites: set[int],
        origins: list[Needle],
        starts: Sequence[int],
        through: set[int],
        in_lambdas: AbstractSet[int] = frozenset(),
    ) -> set[int]:
        """The lines of the statements holding the lines `sites` (of a compound statement, its
        header) that hold one of `origins` (also over a backslash continuation: `model.\\` then
        `input`) or use a name followed from the lines holding them (`_follow`), then of the
        statements that bound such a name there, in their scope or one around it, then of those
        that bound the followed names these use, and so on. A site on the lines `through` in a
        function, not seen so, may get its value through a parameter: where a call of the function
        (its name as a word) is seen so, the site is seen too (`isinstance(x, tf.Tensor)` in
        `def check(x):`, and `check(model.output)`). A statement whose site lines are all among
        `in_lambdas` uses only what the bodies of its lambdas read.

        So a rule that judges a site by what its names are bound to (`h = Dense(8)(inputs)`,
        `inputs = tf.keras.Input(...)`) sees the whole way back, and neither a site with no such
        name nor the other lines using them. What a statement uses is what `_names_used` reads."""
        if not sites:
            return set()
        origin_lines = trigger_lines(source, origins, starts=starts)
        binders = self._follow(source, origin_lines, _MAX_FOLLOW_ROUNDS + 1, starts)[1]
        followed = binders.keys()
        scopes = self._scopes()
        ordered_origins = sorted(origin_lines)

        def text_of(first: int, last: int) -> str:
            return source[starts[first - 1] : starts[last] if last < len(starts) else len(source)]

        def used(first: int, last: int, header: bool = False, in_lambdas: bool = False) -> set[str]:
            text = text_of(first, last)
            words = followed & set(_WORD.findall(text))
            return _names_used(text, header, in_lambdas) & words if words else words

        def holds_an_origin(first: int, last: int) -> bool:
            if _spans_any(first, last, ordered_origins):
                return True
            text = text_of(first, last)  # `model.\` then `input`: no line holds `.input`
            if not _CONTINUATION.search(text):
                return False
            return any(True for _ in matches(_CONTINUATION.sub("", text), origins))

        def visible(name: str, index: int) -> Iterator[int]:
            """The statements binding `name` that the statement at `index` can see."""
            around = {-1}
            scope = scopes[index]
            while scope >= 0:
                around.add(scope)
                scope = scopes[scope]
            return (binder for binder in binders.get(name, ()) if scopes[binder] in around)

        def relevant(
            index: int, first: int, last: int, header: bool, in_lambdas: bool = False
        ) -> set[str] | None:
            """The followed names the statement at `index` uses (in the bodies of its lambdas
            only, with `in_lambdas`) with a binder in sight, or None when it neither uses one nor
            holds an origin."""
            names = {name for name in used(first, last, header, in_lambdas) if any(visible(name, index))}
            return names if names or holds_an_origin(first, last) else None

        lines: set[int] = set()
        queue: list[tuple[int, set[str]]] = []
        # A site in a function may get its value through a parameter: from the function's calls.
        in_functions: dict[str, list[tuple[int, int]]] = {}
        ordered_through = sorted(through)
        ordered_whole = sorted(sites - in_lambdas)  # the sites judged by all their statement uses
        for index, first, last, header in self._spanning(sites):
            lambdas_only = bool(in_lambdas) and not _spans_any(first, last, ordered_whole)
            names = relevant(index, first, last, header, lambdas_only)
            if names is not None:
                lines.update(range(first, last + 1))
                queue.append((index, names))
                continue
            function = scopes[index]
            if (
                function >= 0
                and _CLASSES[self._class[function]] in _FUNCTIONS
                and _spans_any(first, last, ordered_through)
            ):
                (name, _, _), *_ = self._binds_at(function)
                in_functions.setdefault(name, []).append((first, last))
        if in_functions:
            calls = trigger_lines(source, in_functions, words=True, starts=starts)
            for index, first, last, header in self._spanning(calls):
                names = relevant(index, first, last, header)
                if names is None:
                    continue
                lines.update(range(first, last + 1))
                queue.append((index, names))
                for name in in_functions.keys() & set(_WORD.findall(text_of(first, last))):
                    for site_first, site_last in in_functions[name]:
                        lines.update(range(site_first, site_last + 1))
        seen: set[int] = set()
        while queue:
            index, names = queue.pop()
            for name in names:
                for binder in visible(name, index):
                    if binder not in seen:
                        seen.add(binder)
                        loop = self._loops.get(binder)  # a binder is a simple statement or a loop
                        first, last = self._start[binder], self._end[binder] if loop is None else loop[1]
                        lines.update(range(first, last + 1))
                        queue.append((binder, used(first, last, loop is not None)))
        return lines

    def mark(self, lines: Iterable[int]) -> None:
        """Mark interesting the statements that span any of `lines`."""
        ordered = sorted(lines)
        self._interesting = bytearray(
            map(_spans_any, self._start, self._end, itertools.repeat(ordered, len(self._start)))
        )

    def _add(self, statements: Iterable[ast.stmt], top_level: bool = False, lines_before: int = 0) -> None:
        """Plan `statements`, whose line 1 is line `lines_before + 1` of the source."""
        for statement in statements:
            kind = type(statement)
            index = self._count
            if index == len(self._start):
                self._reserve(max(16, 2 * index))
            self._count += 1
            binds = self._binds_of(statement)
            start = statement.lineno
            flags = _TOP_LEVEL if top_level else 0
            if kind in _DEFINITIONS and statement.decorator_list:  # type: ignore[attr-defined]
                start = min(start, *(d.lineno for d in statement.decorator_list))  # type: ignore[attr-defined]
                flags |= _DECORATED
            if not index and _is_docstring(statement):
                flags |= _DOCSTRING
            start += lines_before
            self._class[index] = _class_index(kind)
            self._start[index] = start
            self._end[index] = lines_before + (statement.end_lineno or statement.lineno)
            self._column[index] = statement.col_offset
            self._end_column[index] = statement.end_col_offset or 0
            self._flags[index] = flags
            self._binds[index] = 0 if binds is None else binds
            self._descendants[index] = 0
            fields = _BODIES.get(kind)
            if fields is None:  # a simple statement
                continue
            header_end = max(start, lines_before + _first_child(statement).lineno - 1)
            self._compounds.append(index)
            self._header_ends.append(header_end)
            if kind is ast.For or kind is ast.AsyncFor:  # its target and the end of its header
                targets = tuple(name for name, _, _ in bindings(statement.target))  # type: ignore[attr-defined]
                self._loops[index] = (targets, header_end)
            # what it binds when made of its parts: its header's, then its statements', in order
            found = _header_binds(statement) if binds is None else None
            for body, in_handler, name in _blocks(statement, fields):
                if found is not None and name:
                    found.append((name, None, True))
                child = self._count
                self._add(body, False, lines_before)
                while found is not None and child < self._count:  # its child statements' entries
                    binds_there = self._binds_at(child)
                    found += [(n, q, True) for n, q, _ in binds_there] if in_handler else binds_there
                    child += 1 + self._descendants[child]
            self._descendants[index] = self._count - index - 1
            if found is not None:
                self._binds[index] = self._binding(tuple(found))

    def _binds_of(self, statement: ast.stmt) -> int | None:
        """The index in `_bindings` of what `statement` binds (`_binds`), None for a compound
        statement whose bindings are its header's and its statements' (`_BINDS_BY_PARTS`)."""
        name = _single_name(statement, self._walrus)
        if name is not None:  # most: one entry per name, shared by its assignments
            index = self._by_name.get(name)
            if index is None:
                index = self._by_name[name] = len(self._bindings)
                self._bindings.append(name)
            return index
        binds = _binds(statement, self._walrus)
        return None if binds is None else self._binding(binds)

    def _binding(self, binds: Bindings) -> int:
        if not binds:
            return 0
        self._bindings.append(binds)
        return len(self._bindings) - 1

    def _binds_at(self, index: int) -> Bindings:
        """What the statement at `index` binds."""
        binds = self._bindings[self._binds[index]]
        return ((binds, None, False),) if isinstance(binds, str) else binds

    def take_simple(self, count: int, name: str | None = None) -> Iterable[Bindings] | None:
        """The bindings of a line of `count` small statements, or None to visit it. `name`:
        the line's name when it is only a name, which may be a marker standing for a statement
        left out of the source LibCST parsed (and for its descendants)."""
        index = self.index
        marker = self._markers.get(index) if self._markers else None
        if marker is not None:
            self.index += self._covers[index]
            if name != marker:
                self.broken = True
                return None
            return self._run(index)
        self.index += count
        if self.index > len(self._start) or any(
            issubclass(_CLASSES[kind], _COMPOUND_AST) for kind in self._class[index : self.index]
        ):
            self.broken = True
            return None
        if any(self._interesting[index : self.index]):
            return None
        return [self._binds_at(taken) for taken in range(index, self.index)]

    def _run(self, index: int) -> Iterator[Bindings]:
        """The bindings of the statements the marker at `index` stands for: it and its siblings."""
        stop = index + self._covers[index]
        while index < stop:
            yield self._binds_at(index)
            index += 1 + self._descendants[index]

    def take_compound(self, node: cst.BaseCompoundStatement) -> Bindings | None:
        """The bindings of a compound statement when it can be skipped, else None."""
        index = self.index
        if index >= len(self._start):
            self.broken = True
            return None
        if index in self._markers or not issubclass(
            _CLASSES[self._class[index]], _KINDS.get(type(node).__name__, ())
        ):
            self.broken = True
            return None
        if self._interesting[index]:
            self.index += 1
            return None
        self.index += 1 + self._descendants[index]
        return self._binds_at(index)

    def sparse(self, source: str) -> Sparse | None:
        """`source` with each uninteresting statement (at any depth) that has lines of its own
        replaced by one marker line; None when nothing is worth leaving out. Top-level imports and
        the module docstring stay: new imports are placed after them."""
        if MARKER_PREFIX in source:
            return None
        starts = line_starts(source)
        if starts[-1] != len(source):
            starts = starts + array(starts.typecode, [len(source)])
        pieces: list[str] = []
        originals: dict[str, tuple[int, int]] = {}  # marker -> where its text is in `source`
        sizes: dict[str, int] = {}
        ranges: list[tuple[int, int]] = []
        copied = 0
        index = 0
        count = len(self._start)
        while index < count:
            indent = None if self._interesting[index] else self._indent_if_own_lines(index, source, starts)
            if indent is None:
                index += 1
                continue
            # One marker for the statement and the uninteresting siblings that follow it (with only
            # blank and comment lines between): LibCST parses and the transformer walks one line.
            first, end = self._start[index], self._end[index]
            begin = starts[first - 1]
            covers, siblings = 1 + self._descendants[index], 1
            while index + covers < count:
                other = index + covers
                if (
                    self._interesting[other]
                    or self._start[other] <= end
                    or not _BLANK_OR_COMMENT_LINES.fullmatch(
                        source, starts[end], starts[self._start[other] - 1]
                    )
                    or self._indent_if_own_lines(other, source, starts) != indent
                ):
                    break
                covers += 1 + self._descendants[other]
                siblings += 1
                end = self._end[other]
            finish = starts[end]
            if finish - begin < _WORTH_SKIPPING:
                index += 1
                continue
            last = source[starts[end - 1] : finish]
            marker = f"{MARKER_PREFIX}{len(originals)}__"
            self._markers[index], self._covers[index] = marker, covers
            pieces += [source[copied:begin], indent, marker, last[len(last.rstrip("\r\n")) :]]
            originals[marker] = (begin, finish)
            sizes[marker] = siblings
            ranges.append((first, end))
            copied = finish
            index += covers
        if not originals:
            return None
        pieces.append(source[copied:])
        return Sparse("".join(pieces), source, originals, ranges, sizes)

    def _indent_if_own_lines(self, index: int, source: str, starts: Sequence[int]) -> str | None:
        """The indentation of the statement at `index` if it may be left out (it has its lines to
        itself, and it is neither a top-level import nor the module docstring), else None."""
        flags, start, end = self._flags[index], self._start[index], self._end[index]
        if flags & _TOP_LEVEL and (
            issubclass(_CLASSES[self._class[index]], (ast.Import, ast.ImportFrom)) or flags & _DOCSTRING
        ):
            return None
        if start > 1:
            line_before = source[starts[start - 2] : starts[start - 1]]
            if line_before.rstrip("\r\n").endswith("\\"):
                return None  # its first line continues the one before (`if x: \`)
        first = source[starts[start - 1] : starts[start]]
        indent = first[: len(first) - len(first.lstrip(" \t\f"))]
        if flags & _DECORATED:
            if not first.startswith("@", len(indent)):
                return None
        elif self._column[index] != len(indent):
            return None
        last = source[starts[end - 1] : starts[end]].encode()
        return indent if _REST_OF_LAST_LINE.fullmatch(last, self._end_column[index]) else None

    def drop_markers(self) -> None:
        """Forget `sparse`: the whole source is parsed after all."""
        self._markers, self._covers = {}, {}

    def reset(self) -> None:
        self.index = 0
        self.broken = False

    @property
    def consistent(self) -> bool:
        return not self.broken and self.index == len(self._start)


def _names_used(text: str, header: bool, in_lambdas: bool = False) -> set[str]:
    """The names the code `text` (a statement's lines, or a compound statement's header's) reads,
    but not those a `lambda` in it binds and reads in its body (`lambda x: x`), nor those it only
    assigns; with `in_lambdas`, only those the bodies of its lambdas read. Where Python cannot read
    the text alone (an `elif`, lines less indented than the first), every word in it."""
    code = textwrap.dedent(text)
    try:
        tree = ast.parse(code + "\n pass\n" if header else code)
    except (SyntaxError, ValueError, RecursionError):
        return set(_WORD.findall(text))
    names: set[str] = set()
    # (node, the names lambdas around it bind, whether what it reads counts)
    pending: list[tuple[ast.AST, frozenset[str], bool]] = [(tree, frozenset(), not in_lambdas)]
    while pending:
        node, hidden, counts = pending.pop()
        if isinstance(node, ast.Name):
            if counts and node.id not in hidden and not isinstance(node.ctx, ast.Store):
                names.add(node.id)
            continue
        if counts and isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)  # `x += 1` reads `x`
        if isinstance(node, ast.Lambda):
            arguments = node.args
            parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            parameters += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
            pending += [
                (default, hidden, counts)
                for default in (*arguments.defaults, *arguments.kw_defaults)
                if default
            ]
            pending.append((node.body, hidden | {a.arg for a in parameters}, True))
            continue
        pending += [(child, hidden, counts) for child in ast.iter_child_nodes(node)]
    return names


def _first_child(statement: ast.stmt) -> ast.stmt | ast.pattern:
    """The first statement of a compound statement's body (or the first pattern of a `match`)."""
    body = getattr(statement, "body", None)
    return body[0] if body else statement.cases[0].pattern  # type: ignore[attr-defined]


def _spans_any(start: int, end: int, ordered: list[int]) -> bool:
    """Whether the lines from `start` to `end` hold one of the `ordered` line numbers."""
    index = bisect.bisect_left(ordered, start)
    return index < len(ordered) and ordered[index] <= end


_SHAPES: dict[type, ast.stmt] = {}


def _shape(kind: type[ast.stmt]) -> ast.stmt:
    """An empty `ast` node of class `kind`, one for all."""
    shape = _SHAPES.get(kind)
    return shape if shape is not None else _SHAPES.setdefault(kind, kind())


# Statements that bind no name, unless an expression of theirs holds `:=`.
_BINDS_NOTHING = frozenset({ast.Expr, ast.Return, ast.Raise, ast.Assert, ast.Pass, ast.Break, ast.Continue})
_FUNCTIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})
_DEFINITIONS = frozenset({*_FUNCTIONS, ast.ClassDef})
_ASSIGNMENTS = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign})
_PLAIN_TARGETS = frozenset({ast.Name, ast.Attribute, ast.Subscript})  # `x`, `a.x`, `a[x]`: x is not bound


def _single_name(statement: ast.stmt, walrus: bool) -> str | None:
    """The one name a definition, or an assignment to one name, binds (most statements that bind)."""
    kind = type(statement)
    if kind in _DEFINITIONS:
        return statement.name  # type: ignore[attr-defined]
    if not walrus and kind in _ASSIGNMENTS:
        targets = statement.targets if kind is ast.Assign else [statement.target]  # type: ignore[attr-defined]
        if all(type(target) in _PLAIN_TARGETS for target in targets):
            names = [target.id for target in targets if type(target) is ast.Name]
            if len(names) == 1:
                return names[0]
    return None


def _binds(statement: ast.stmt, walrus: bool) -> Bindings | None:
    """`bindings` of a statement outside any except handler, with shortcuts for the common ones;
    None for a compound statement whose header binds at most its targets (no `:=`): its bindings
    are those and its statements' (`_header_binds`), which the plan has read already."""
    kind = type(statement)
    if not walrus and kind in _BINDS_BY_PARTS:
        return None
    if not walrus and kind in _BINDS_NOTHING:
        return ()
    if not walrus and kind in _ASSIGNMENTS:
        targets = statement.targets if kind is ast.Assign else [statement.target]  # type: ignore[attr-defined]
        if all(type(target) in _PLAIN_TARGETS for target in targets):
            return tuple((target.id, None, False) for target in targets if type(target) is ast.Name)
    return tuple(bindings(statement, walrus=walrus))


def _blocks(
    statement: ast.stmt, fields: tuple[str, ...]
) -> Iterator[tuple[list[ast.stmt], bool, str | None]]:
    """The statement lists of a compound statement's `fields`, in order: (statements, whether in an
    except clause, the name the clause binds)."""
    for field in fields:
        if field in _CLAUSES:
            for clause in getattr(statement, field):
                yield clause.body, field == "handlers", getattr(clause, "name", None)
        else:
            yield getattr(statement, field), False, None


def _header_binds(statement: ast.stmt) -> list[tuple[str, str | None, bool]]:
    """What the header of a statement of `_BINDS_BY_PARTS` binds: a loop's target, a `with`'s."""
    kind = type(statement)
    if kind is ast.For or kind is ast.AsyncFor:
        return list(bindings(statement.target, walrus=False))  # type: ignore[attr-defined]
    if kind is ast.With or kind is ast.AsyncWith:
        items = statement.items  # type: ignore[attr-defined]
        return [
            found
            for item in items
            if item.optional_vars
            for found in bindings(item.optional_vars, walrus=False)
        ]
    return []


def _is_docstring(statement: ast.stmt) -> bool:
    """Whether a module's first statement is its docstring."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def bindings(
    statement: ast.AST, in_handler: bool = False, *, walrus: bool = True
) -> Iterator[tuple[str, str | None, bool]]:
    """(name, qualified name for imports else None, bound in an except handler) for each name a
    statement binds in its own scope, in document order. With `walrus=False` (the source has no
    `:=`), expressions other than assignment targets are not searched: nothing in them binds."""
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.asname:
                yield alias.asname, alias.name, in_handler
            else:
                top = alias.name.split(".")[0]
                yield top, top, in_handler
        return
    if isinstance(statement, ast.ImportFrom):
        if statement.level == 0 and statement.module:
            for alias in statement.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, f"{statement.module}.{alias.name}", in_handler
        return
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield statement.name, None, in_handler
        return
    if isinstance(statement, (ast.Lambda, *_COMPREHENSIONS)):
        return
    if isinstance(statement, ast.Name) and isinstance(statement.ctx, ast.Store):
        yield statement.id, None, in_handler
        return
    if (
        not walrus
        and isinstance(statement, ast.expr)
        and not isinstance(getattr(statement, "ctx", None), ast.Store)
    ):
        return
    if isinstance(statement, ast.ExceptHandler):
        if statement.name:
            yield statement.name, None, True
        for child in statement.body:
            yield from bindings(child, True, walrus=walrus)
        return
    for node in ast.iter_child_nodes(statement):
        yield from bindings(node, in_handler, walrus=walrus)
