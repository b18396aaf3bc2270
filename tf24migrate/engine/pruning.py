"""Skipping the statements that cannot matter, so LibCST parses and walks only the few that can.

A LibCST parse and traversal cost far more than Python's own parser. `ast` knows each statement's
lines, so the engine lists the statements in document order with whether their lines hold a
trigger string of an active rule (or use a name bound on such a line, `Rule.follows`). It keeps of
each statement only its class, its position and the names it binds, in columns (arrays of ints and
bytes), so that a long source is read one chunk of its `ast` at a time
(`rules.text.python_chunks_with_offsets`), each dropped before the next, and the plan costs tens
of bytes a statement. A statement with no trigger that has its lines to itself is left out of the
text LibCST parses, one marker line in its place (`Sparse`); the others without a trigger are
parsed but not walked. The transformer walks LibCST's statements in the plan's order and binds the
names of each skipped one from its `ast` node. If the two orders ever disagree, the engine parses
the whole source and walks it without a plan. A trigger missing from a line a rule must see would
lose its findings: tests run every fixture and the public corpora with and without the plan
(`TF24MIGRATE_OFF=pruning`, `model.tricks`) and demand the same output.
"""

from __future__ import annotations

import ast
import bisect
import itertools
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from tf24migrate.catalogue.prefilter import Needle, trigger_lines
from tf24migrate.engine.ast_bindings import Bindings, Binds, bindings
from tf24migrate.engine.nesting import too_deep
from tf24migrate.engine.sparse import MARKER_PREFIX, Sparse
from tf24migrate.rules.names import dotted_assignment
from tf24migrate.rules.text import line_starts, python_chunks_with_offsets

_MAX_FOLLOW_ROUNDS = 3
_WORTH_SKIPPING = 48  # characters: a shorter statement costs LibCST about what its marker does
# What may follow a statement on its last line for the line to be its own.
_REST_OF_LAST_LINE = re.compile(rb"[ \t\f]*;?[ \t\f]*(?:#[^\r\n]*)?(?:\r\n?|\n)?")
_BLANK_OR_COMMENT_LINES = re.compile(r"(?:[ \t\f]*(?:#[^\r\n]*)?(?:\r\n?|\n))*")
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
        # Each distinct bindings once (most statements: `()`); a name stands for `((name, None, False, None),)`.
        self._bindings: list[Bindings | str] = [()]
        self._by_name: dict[str, int] = {}  # name -> its index in `_bindings` (while adding)
        # A statement left out of the source LibCST parses: the name standing for it (`Sparse`), and
        # how many entries it and the siblings after it that it also stands for are, descendants too.
        self._markers: dict[int, str] = {}
        self._covers: dict[int, int] = {}
        # A `for` loop's: the names its target binds, and the last line of its header (few: a dict).
        self._loops: dict[int, tuple[tuple[str, ...], int]] = {}
        # A decorated function's `def` line (its parameters are followed from there, `_follow`).
        self._def_lines: dict[int, int] = {}
        # The compound statements (few: most statements of a long source are simple), in order.
        self._compounds = array("i")
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
    ) -> StatementPlan | None:
        """The plan for `source`, or None when Python's parser cannot read it.

        A name bound by an interesting simple statement on a line holding one of `followed` (the
        triggers whose names rules follow, `Rule.follows`; default: all of `triggers`),
        as `from ... import multi_gpu_model as par`, `device = "/device:XLA_GPU:0"` or
        `x = tf.keras.Input(...)`, or by the target of a `for` loop whose header holds one
        (`for out in model.outputs:`), makes the lines that use it interesting too (and so on), so
        rules that follow a value through a name see both ends; so do the parameters of a function
        whose header holds one, in the function's lines (what `def _aggregate_gradients(self,
        grads_and_vars):` returns is computed from them).

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
        lines |= plan._follow(source, sources, starts)
        plan.mark(lines)
        return plan

    def _follow(self, source: str, sources: set[int], starts: Sequence[int]) -> set[int]:
        """Follow the names bound on the lines `sources`, for `_MAX_FOLLOW_ROUNDS` rounds: those a
        simple statement spanning one of them binds, the target of a `for` loop whose header holds
        one (`for out in model.outputs:`: `out`, not what its body binds), a function's parameters
        where its header holds one (`def _aggregate_gradients(self, grads_and_vars):`: in the
        function's own lines), then those a statement using such a name binds, and so on. Returns
        the lines using the names followed."""
        if not sources:
            return set()
        first, last = self._header_lines()
        ordered = sorted(sources)
        using: set[int] = set()
        followed: set[str] = set()
        harvested: set[int] = set()  # statements whose bindings were followed already
        for _ in range(_MAX_FOLLOW_ROUNDS):
            names: set[str] = set()
            found: set[int] = set()
            spanning = map(_spans_any, first, last, itertools.repeat(ordered))
            for index in itertools.compress(range(len(last)), spanning):
                if index in harvested:
                    continue
                harvested.add(index)
                loop = self._loops.get(index)
                if loop is not None:
                    names.update(loop[0])
                elif _CLASSES[self._class[index]] in _FUNCTIONS:
                    parameters = _parameters(
                        source[
                            starts[first[index] - 1] + self._column[index] : starts[last[index]]
                            if last[index] < len(starts)
                            else len(source)
                        ]
                    )
                    scope = (first[index], self._end[index])
                    if parameters:
                        found |= trigger_lines(source, parameters, words=True, starts=starts, lines=scope)
                else:
                    names.update(name for name, *_ in self._binds_at(index))
            names -= followed
            followed |= names
            if names:
                found |= trigger_lines(source, names, words=True, starts=starts)
            if found <= using:
                break
            using |= found
            ordered = sorted({*ordered, *found})
        return using

    def _header_lines(self) -> tuple[array[int], array[int]]:
        """The first and last lines of each statement whose bindings `_follow` takes: a simple
        statement's, a `for` loop's header, a function's (from its `def`, to the line before its
        first statement); none of the other compound statements' (0 to 0: their bindings are
        their statements')."""
        first, last = array("i", self._start), array("i", self._end)
        count = len(self._start)
        for index in self._compounds:
            loop = self._loops.get(index)
            if loop is not None:
                last[index] = loop[1]
            elif _CLASSES[self._class[index]] in _FUNCTIONS and index + 1 < count:
                first[index] = self._def_lines.get(index, self._start[index])
                last[index] = max(first[index], self._start[index + 1] - 1)
            else:
                first[index] = last[index] = 0
        return first, last

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
            if kind is ast.For or kind is ast.AsyncFor:  # its target and the end of its header
                targets = tuple(name for name, *_ in bindings(statement.target))  # type: ignore[attr-defined]
                self._loops[index] = (targets, header_end)
            elif flags & _DECORATED and kind is not ast.ClassDef:
                self._def_lines[index] = lines_before + statement.lineno
            # what it binds when made of its parts: its header's, then its statements', in order
            found = _header_binds(statement) if binds is None else None
            for body, in_handler, name in _blocks(statement, fields):
                if found is not None and name:
                    found.append((name, None, True, None))
                child = self._count
                self._add(body, False, lines_before)
                while found is not None and child < self._count:  # its child statements' entries
                    binds_there = self._binds_at(child)
                    found += [(n, q, True, a) for n, q, _, a in binds_there] if in_handler else binds_there
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
        return ((binds, None, False, None),) if isinstance(binds, str) else binds

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

    def largest_interesting(self, source: str) -> tuple[int, int]:
        """The interesting statement LibCST is given the most of at once, as (its first line, the
        characters of its own lines: its decorators and header for a compound statement, up to
        its first child's line), or (0, 0) when none is interesting. Every other statement of the
        text LibCST parses is left out (a marker line) or has no trigger."""
        starts = line_starts(source)
        count = len(self._start)

        def offset(line: int) -> int:  # where line `line` (1-based) starts; past the end: the end
            return starts[line - 1] if line <= len(starts) else len(source)

        first_line, largest = 0, 0
        for index in itertools.compress(range(count), self._interesting):
            first = self._start[index]
            last = self._end[index]
            if self._descendants[index] and index + 1 < count:
                last = max(first, self._start[index + 1] - 1)
            size = offset(last + 1) - offset(first)
            if size > largest:
                first_line, largest = first, size
        return first_line, largest

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
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_ASSIGNMENTS = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign})
_PLAIN_TARGETS = frozenset({ast.Name, ast.Attribute, ast.Subscript})  # `x`, `a.x`, `a[x]`: x is not bound


def _single_name(statement: ast.stmt, walrus: bool) -> str | None:
    """The one name a definition, or an assignment to one name, binds (most statements that bind)."""
    kind = type(statement)
    if kind in _DEFINITIONS:
        return statement.name  # type: ignore[attr-defined]
    if not walrus and kind in _ASSIGNMENTS and dotted_assignment(statement) is None:
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
    if not walrus and kind in _ASSIGNMENTS and dotted_assignment(statement) is None:
        targets = statement.targets if kind is ast.Assign else [statement.target]  # type: ignore[attr-defined]
        if all(type(target) in _PLAIN_TARGETS for target in targets):
            return tuple((target.id, None, False, None) for target in targets if type(target) is ast.Name)
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


def _parameters(header: str) -> list[str]:
    """The names of the parameters of the function whose header (from `def`, or `async def`, to
    the line before its first statement) is `header`; none when it cannot be read alone."""
    for text in (header, header + "\n    pass\n"):
        try:
            function = ast.parse(text).body[0]
        except (SyntaxError, ValueError, RecursionError, IndexError):
            continue
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = function.args
            every = (
                *arguments.posonlyargs,
                *arguments.args,
                arguments.vararg,
                *arguments.kwonlyargs,
                arguments.kwarg,
            )
            return [parameter.arg for parameter in every if parameter is not None]
    return []


def _header_binds(statement: ast.stmt) -> list[Binds]:
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
