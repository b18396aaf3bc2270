"""Skipping the statements that cannot matter, so LibCST parses and walks only the few that can.

A LibCST parse and traversal cost far more than Python's own parser. `ast` knows each statement's
lines, so the engine lists the statements in document order with whether their lines hold a
trigger string of an active rule (or a name bound on such a line). It keeps of each statement only
its class, its position and the names it binds, so that a long source is read one chunk of its
`ast` at a time (`rules.text.python_chunks`), each dropped before the next. A statement with no trigger
that has its lines to itself is left out of the text LibCST parses, one marker line in its place
(`Sparse`); the others without a trigger are parsed but not walked. The transformer walks LibCST's
statements in the plan's order and binds the names of each skipped one from its `ast` node. If
the two orders ever disagree, the engine parses the whole source and walks it without a plan, so
pruning can change speed but never results.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst

from tf24migrate.catalogue.prefilter import Needle, matches, pattern_of
from tf24migrate.engine.nesting import too_deep
from tf24migrate.engine.sparse import MARKER_PREFIX, Sparse
from tf24migrate.rules.text import line_starts, python_chunks

_MAX_FOLLOW_ROUNDS = 3
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


Bindings = tuple[tuple[str, str | None, bool], ...]  # what `bindings` yields


@dataclass(slots=True)
class Entry:
    node: ast.stmt  # an empty node of the statement's class, one for all of that class (`_shape`)
    start: int  # first line, decorators included
    end: int
    top_level: bool
    binds: Bindings  # the names it binds in its scope, outside any except handler (`bindings`)
    col_offset: int = 0  # of its first line that is not a decorator's, in UTF-8 bytes
    end_col_offset: int = 0
    decorated: bool = False
    docstring: bool = False  # the module's
    interesting: bool = False
    descendants: int = 0
    marker: str | None = None  # the name standing for it in the source LibCST parses (`Sparse`)
    # With a marker: the bindings of the statements it stands for (it and the siblings after it),
    # and how many entries they are with their descendants.
    run: list[Bindings] | None = None
    covers: int = 0
    # A `for` loop's: the names its target binds, and the last line of its header.
    loop_targets: tuple[str, ...] = ()
    header_end: int = 0


def trigger_lines(source: str, triggers: Iterable[Needle], *, words: bool = False) -> set[int]:
    """1-based numbers of the lines on which any of `triggers` occurs (literals as whole words if
    `words`)."""
    starts = line_starts(source)
    if words:  # names, all literals
        found = pattern_of([t for t in triggers if isinstance(t, str)], words=True).finditer(source)
    else:
        found = matches(source, triggers)
    return {bisect.bisect_right(starts, match.start()) for match in found}


class StatementPlan:
    """The statements of a module in document order, each marked interesting or not."""

    def __init__(self, tree: ast.Module, lines: set[int], *, walrus: bool = True) -> None:
        self.top_lines: list[int] = []  # the first line of each top-level statement
        self.entries: list[Entry] = []
        self.index = 0
        self.broken = False
        self.deep: int | None = None  # the first line of a statement nesting too deep (`nesting`)
        self._walrus = walrus  # whether the source holds `:=` (see `bindings`)
        self._assigns: dict[str, Bindings] = {}  # name -> the bindings of `name = ...`, shared
        self._add(tree.body, top_level=True)
        self.mark(lines)

    @classmethod
    def build(
        cls, source: str, triggers: Iterable[Needle], followed: Iterable[Needle] | None = None
    ) -> StatementPlan | None:
        """The plan for `source`, or None when Python's parser cannot read it.

        A name bound by an interesting simple statement on a line holding one of `followed` (the
        triggers whose names rules follow, `Rule.follows`; default: all of `triggers`),
        as `from ... import multi_gpu_model as par`, `device = "/device:XLA_GPU:0"` or
        `x = tf.keras.Input(...)`, or by the target of a `for` loop whose header holds one
        (`for out in model.outputs:`), makes the lines that use it interesting too (and so on), so
        rules that follow a value through a name see both ends.

        `deep` is set, and no statement is listed after it, when a statement nests too deep."""
        plan = cls(ast.Module(body=[], type_ignores=[]), set(), walrus=":=" in source)
        starts = line_starts(source)
        try:
            for tree in python_chunks(source):  # each chunk is read to the end: its syntax errors first
                plan.deep = plan.deep or too_deep(tree, starts)
                if plan.deep is None:
                    plan._add(tree.body, top_level=True)
        except (SyntaxError, ValueError, RecursionError):
            return None
        if plan.deep is not None:
            return plan
        triggers = list(triggers)
        lines = trigger_lines(source, triggers)
        plan.mark(lines)
        # the lines whose bound names are followed: those of `followed`, then those using such a name
        sources = sorted(lines if followed is None else trigger_lines(source, followed))
        names_followed: set[str] = set()
        harvested: set[int] = set()  # entries whose bindings were followed already
        for _ in range(_MAX_FOLLOW_ROUNDS):
            names: set[str] = set()
            for index, entry in enumerate(plan.entries):
                if not entry.interesting or index in harvested:
                    continue
                if not isinstance(entry.node, _COMPOUND_AST) and _spans_any(entry, sources):
                    harvested.add(index)
                    names.update(name for name, _, _ in entry.binds)
                elif entry.loop_targets and _between_any(entry.start, entry.header_end, sources):
                    harvested.add(index)  # `for out in model.outputs:`: `out`, not what the body binds
                    names.update(entry.loop_targets)
            names -= names_followed
            if not names:
                break
            names_followed |= names
            using = trigger_lines(source, names, words=True)
            lines |= using
            sources = sorted({*sources, *using})
            plan.mark(lines)
        return plan

    def mark(self, lines: Iterable[int]) -> None:
        """Mark interesting the statements that span any of `lines`."""
        ordered = sorted(lines)
        for entry in self.entries:
            entry.interesting = _spans_any(entry, ordered)

    def _add(self, statements: Iterable[ast.stmt], top_level: bool = False) -> None:
        for statement in statements:
            start = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
            end = statement.end_lineno or statement.lineno
            binds = _binds(statement, self._walrus, self._assigns)
            entry = Entry(
                _shape(statement),
                start,
                start if end == start else end,  # one int object for a one-line statement
                top_level,
                binds or (),
                statement.col_offset,
                statement.end_col_offset or 0,
                bool(getattr(statement, "decorator_list", None)),
                docstring=not self.entries and _is_docstring(statement),
            )
            if isinstance(statement, (ast.For, ast.AsyncFor)):
                entry.loop_targets = tuple(name for name, _, _ in bindings(statement.target))
                entry.header_end = max(start, statement.body[0].lineno - 1)
            if top_level:
                self.top_lines.append(start)
            self.entries.append(entry)
            start = len(self.entries)
            children = []  # the index of each child statement's entry (of an except clause's first)
            for attribute in ("body", "handlers", "orelse", "finalbody", "cases"):
                for child in getattr(statement, attribute, ()):
                    children.append(len(self.entries))
                    self._add([child] if isinstance(child, ast.stmt) else child.body)
            entry.descendants = len(self.entries) - start
            if binds is None:
                entry.binds = tuple(found for index in children for found in self.entries[index].binds)

    def take_simple(self, count: int, name: str | None = None) -> list[Bindings] | None:
        """The bindings of a line of `count` small statements, or None to visit it. `name`:
        the line's name when it is only a name, which may be a marker standing for a statement
        left out of the source LibCST parsed (and for its descendants)."""
        entry = self.entries[self.index] if self.index < len(self.entries) else None
        if entry is not None and entry.marker is not None:
            self.index += entry.covers
            if name != entry.marker:
                self.broken = True
                return None
            return entry.run
        taken = self.entries[self.index : self.index + count]
        self.index += count
        if len(taken) != count or any(isinstance(e.node, _COMPOUND_AST) for e in taken):
            self.broken = True
            return None
        return None if any(e.interesting for e in taken) else [e.binds for e in taken]

    def take_compound(self, node: cst.BaseCompoundStatement) -> Bindings | None:
        """The bindings of a compound statement when it can be skipped, else None."""
        if self.index >= len(self.entries):
            self.broken = True
            return None
        entry = self.entries[self.index]
        if entry.marker is not None or not isinstance(entry.node, _KINDS.get(type(node).__name__, ())):
            self.broken = True
            return None
        if entry.interesting:
            self.index += 1
            return None
        self.index += 1 + entry.descendants
        return entry.binds

    def sparse(self, source: str) -> Sparse | None:
        """`source` with each uninteresting statement (at any depth) that has lines of its own
        replaced by one marker line; None when nothing is worth leaving out. Top-level imports and
        the module docstring stay: new imports are placed after them."""
        if MARKER_PREFIX in source:
            return None
        starts = line_starts(source)
        if starts[-1] != len(source):
            starts.append(len(source))
        pieces: list[str] = []
        originals: dict[str, tuple[int, int]] = {}  # marker -> where its text is in `source`
        sizes: dict[str, int] = {}
        ranges: list[tuple[int, int]] = []
        copied = 0
        index = 0
        while index < len(self.entries):
            entry = self.entries[index]
            indent = None if entry.interesting else self._indent_if_own_lines(entry, source, starts)
            if indent is None:
                index += 1
                continue
            # One marker for the statement and the uninteresting siblings that follow it (with only
            # blank and comment lines between): LibCST parses and the transformer walks one line.
            begin, end = starts[entry.start - 1], entry.end
            entry.run, entry.covers = [entry.binds], 1 + entry.descendants
            while index + entry.covers < len(self.entries):
                other = self.entries[index + entry.covers]
                if (
                    other.interesting
                    or other.start <= end
                    or not _BLANK_OR_COMMENT_LINES.fullmatch(source, starts[end], starts[other.start - 1])
                    or self._indent_if_own_lines(other, source, starts) != indent
                ):
                    break
                entry.run.append(other.binds)
                entry.covers += 1 + other.descendants
                end = other.end
            finish = starts[end]
            if finish - begin < _WORTH_SKIPPING:
                entry.run, entry.covers = None, 0
                index += 1
                continue
            last = source[starts[end - 1] : finish]
            entry.marker = f"{MARKER_PREFIX}{len(originals)}__"
            pieces += [source[copied:begin], indent, entry.marker, last[len(last.rstrip("\r\n")) :]]
            originals[entry.marker] = (begin, finish)
            sizes[entry.marker] = len(entry.run)
            ranges.append((entry.start, end))
            copied = finish
            index += entry.covers
        if not originals:
            return None
        pieces.append(source[copied:])
        return Sparse("".join(pieces), source, originals, ranges, sizes)

    def _indent_if_own_lines(self, entry: Entry, source: str, starts: list[int]) -> str | None:
        """The indentation of a statement that may be left out (it has its lines to itself, and
        it is neither a top-level import nor the module docstring), else None."""
        if entry.top_level and (isinstance(entry.node, (ast.Import, ast.ImportFrom)) or entry.docstring):
            return None
        if entry.start > 1:
            line_before = source[starts[entry.start - 2] : starts[entry.start - 1]]
            if line_before.rstrip("\r\n").endswith("\\"):
                return None  # its first line continues the one before (`if x: \`)
        first = source[starts[entry.start - 1] : starts[entry.start]]
        indent = first[: len(first) - len(first.lstrip(" \t\f"))]
        if entry.decorated:
            if not first.startswith("@", len(indent)):
                return None
        elif entry.col_offset != len(indent):
            return None
        last = source[starts[entry.end - 1] : starts[entry.end]].encode()
        return indent if _REST_OF_LAST_LINE.fullmatch(last, entry.end_col_offset) else None

    def drop_markers(self) -> None:
        """Forget `sparse`: the whole source is parsed after all."""
        for entry in self.entries:
            entry.marker = None

    def reset(self) -> None:
        self.index = 0
        self.broken = False

    @property
    def consistent(self) -> bool:
        return not self.broken and self.index == len(self.entries)


def _spans_any(entry: Entry, ordered: list[int]) -> bool:
    """Whether the statement spans one of the `ordered` line numbers."""
    return _between_any(entry.start, entry.end, ordered)


def _between_any(first: int, last: int, ordered: list[int]) -> bool:
    """Whether one of the `ordered` line numbers is from `first` to `last`."""
    index = bisect.bisect_left(ordered, first)
    return index < len(ordered) and ordered[index] <= last


_SHAPES: dict[type, ast.stmt] = {}


def _shape(statement: ast.stmt) -> ast.stmt:
    """An empty `ast` node of the statement's class, shared by all the statements of that class."""
    kind = type(statement)
    shape = _SHAPES.get(kind)
    return shape if shape is not None else _SHAPES.setdefault(kind, kind())


# Statements that bind no name, unless an expression of theirs holds `:=`.
_BINDS_NOTHING = frozenset({ast.Expr, ast.Return, ast.Raise, ast.Assert, ast.Pass, ast.Break, ast.Continue})
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_ASSIGNMENTS = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign})
_PLAIN_TARGETS = frozenset({ast.Name, ast.Attribute, ast.Subscript})  # `x`, `a.x`, `a[x]`: x is not bound


def _binds(statement: ast.stmt, walrus: bool, assigns: dict[str, Bindings]) -> Bindings | None:
    """`bindings` of a statement outside any except handler, with shortcuts for the common ones;
    None for an `if` or `while` whose test cannot bind (no `:=`): its bindings are its statements'."""
    kind = type(statement)
    if not walrus and kind in (ast.If, ast.While):
        return None
    if kind in _DEFINITIONS:
        return ((statement.name, None, False),)  # type: ignore[attr-defined]
    if not walrus and kind in _BINDS_NOTHING:
        return ()
    if not walrus and kind in _ASSIGNMENTS:
        targets = statement.targets if kind is ast.Assign else [statement.target]  # type: ignore[attr-defined]
        if all(type(target) in _PLAIN_TARGETS for target in targets):
            names = [target.id for target in targets if type(target) is ast.Name]
            if len(names) == 1:  # most: one tuple per name, shared by its assignments (`assigns`)
                return assigns.get(names[0]) or assigns.setdefault(names[0], ((names[0], None, False),))
            return tuple((name, None, False) for name in names)
    return tuple(bindings(statement, walrus=walrus))


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
