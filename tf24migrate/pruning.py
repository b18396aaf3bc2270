"""Skipping the statements that cannot matter, so the transformer only rebuilds the few that can.

A LibCST traversal costs about as much as the parse itself, whatever it does. Python's `ast` parses
about ten times faster and knows each statement's lines, so the engine lists the statements in
document order with whether their lines hold a trigger string of an active rule. The transformer
walks LibCST's statements in the same order; a statement with no trigger is not descended into,
and the names it binds are taken from its `ast` node instead. If the two orders ever disagree, the
pass is run again without pruning, so pruning can change speed but never results.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst

_MAX_FOLLOW_ROUNDS = 3
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


def parse_with_python(source: str) -> ast.Module:
    """`ast.parse`, silent: warnings about the user's code (invalid escapes) are not ours to raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source)


@dataclass
class Entry:
    node: ast.stmt
    start: int  # first line, decorators included
    end: int
    interesting: bool = False
    descendants: int = 0


def trigger_lines(source: str, triggers: Iterable[str], *, words: bool = False) -> set[int]:
    """1-based numbers of the lines on which any of `triggers` occurs (as a whole word if `words`)."""
    alternatives = "|".join(re.escape(t) for t in sorted(set(triggers), key=len, reverse=True))
    pattern = re.compile(rf"\b(?:{alternatives})\b" if words else alternatives)
    lines: set[int] = set()
    line, position = 1, 0
    for match in pattern.finditer(source):
        line += source.count("\n", position, match.start())
        position = match.start()
        lines.add(line)
    return lines


class StatementPlan:
    """The statements of a module in document order, each marked interesting or not."""

    def __init__(self, tree: ast.Module, lines: set[int]) -> None:
        self.tree = tree
        self.entries: list[Entry] = []
        self.index = 0
        self.broken = False
        self._add(tree.body)
        self.mark(lines)

    @classmethod
    def build(cls, source: str, triggers: Iterable[str]) -> StatementPlan | None:
        """The plan for `source`, or None when Python's parser cannot read it.

        A name bound by an interesting simple statement (`from ... import multi_gpu_model as par`,
        `device = "/device:XLA_GPU:0"`, `x = tf.keras.Input(...)`) makes the lines that use it
        interesting too, so rules that follow a value through a name see both ends."""
        try:
            tree = parse_with_python(source)
        except (SyntaxError, ValueError, RecursionError):
            return None
        lines = trigger_lines(source, triggers)
        plan = cls(tree, lines)
        followed: set[str] = set()
        harvested: set[int] = set()  # entries whose bindings were followed already
        walrus = ":=" in source
        for _ in range(_MAX_FOLLOW_ROUNDS):
            names: set[str] = set()
            for index, entry in enumerate(plan.entries):
                if entry.interesting and index not in harvested and not isinstance(entry.node, _COMPOUND_AST):
                    harvested.add(index)
                    names.update(name for name, _, _ in bindings(entry.node, walrus=walrus))
            names -= followed
            if not names:
                break
            followed |= names
            lines |= trigger_lines(source, names, words=True)
            plan.mark(lines)
        return plan

    def mark(self, lines: Iterable[int]) -> None:
        """Mark interesting the statements that span any of `lines`."""
        ordered = sorted(lines)
        for entry in self.entries:
            index = bisect.bisect_left(ordered, entry.start)
            entry.interesting = index < len(ordered) and ordered[index] <= entry.end

    def _add(self, statements: Iterable[ast.AST]) -> None:
        for statement in statements:
            start = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
            entry = Entry(statement, start, statement.end_lineno or statement.lineno)
            self.entries.append(entry)
            start = len(self.entries)
            for field in ("body", "handlers", "orelse", "finalbody", "cases"):
                for child in getattr(statement, field, ()):
                    self._add([child] if isinstance(child, ast.stmt) else child.body)
            entry.descendants = len(self.entries) - start

    def take_simple(self, count: int) -> list[ast.stmt] | None:
        """The ast statements of a line of `count` small statements, or None to visit it."""
        taken = self.entries[self.index : self.index + count]
        self.index += count
        if len(taken) != count or any(isinstance(e.node, _COMPOUND_AST) for e in taken):
            self.broken = True
            return None
        return None if any(e.interesting for e in taken) else [e.node for e in taken]

    def take_compound(self, node: cst.BaseCompoundStatement) -> ast.stmt | None:
        """The ast statement of a compound statement when it can be skipped, else None."""
        if self.index >= len(self.entries):
            self.broken = True
            return None
        entry = self.entries[self.index]
        if not isinstance(entry.node, _KINDS.get(type(node).__name__, ())):
            self.broken = True
            return None
        if entry.interesting:
            self.index += 1
            return None
        self.index += 1 + entry.descendants
        return entry.node

    def reset(self) -> None:
        self.index = 0
        self.broken = False

    @property
    def consistent(self) -> bool:
        return not self.broken and self.index == len(self.entries)


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
    for child in ast.iter_child_nodes(statement):
        yield from bindings(child, in_handler, walrus=walrus)
