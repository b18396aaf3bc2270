"""Which function and class bodies the transformer can leave unvisited: speed only.

A rule fires where its trigger text occurs, or at a name that an import binds to something whose
text contains a trigger (an alias: `from ... import CollectiveHints as Hints`, then `Hints()`). So
a `def` or `class` whose source lines contain neither a trigger nor such a watched name cannot
hold a finding, and what it binds inside stays inside (the transformer binds its name as usual).
Its subtree is then neither walked nor rebuilt by LibCST, which is most of the cost of a module.

`ast` (ten times faster than LibCST's parser) gives the line ranges. Definitions come in the same
pre-order from `ast` and from LibCST; the transformer checks each name as it goes, and the engine
runs again without a plan if they ever disagree.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class PlanMismatch(Exception):
    """LibCST met a definition the plan did not expect; the caller must run without the plan."""


@dataclass(frozen=True)
class Definition:
    name: str
    quiet: bool  # no trigger and no watched name in its lines: skip its subtree
    nested: int  # how many definitions are inside it (skipped with it)


def _definitions_with_nested(tree: ast.AST) -> list[tuple[ast.AST, int]]:
    """Every definition in pre-order, with the number of definitions inside it; one walk."""
    found: list[tuple[ast.AST, int]] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _DEFINITIONS):
                at = len(found)
                found.append((child, 0))
                walk(child)
                found[at] = (child, len(found) - at - 1)
            elif isinstance(child, (ast.stmt, ast.ExceptHandler, ast.match_case)):
                walk(child)  # definitions are statements: expressions hold none

    walk(tree)
    return found


def _watched_names(tree: ast.Module, triggers: tuple[str, ...]) -> set[str]:
    """Local names bound by imports whose imported name contains a trigger."""
    watched = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                imported = f"{module}.{alias.name}"
                if any(trigger in imported for trigger in triggers):
                    watched.add(alias.asname or alias.name.split(".")[0])
    return watched


def plan(source: str, triggers: Iterable[str]) -> list[Definition] | None:
    """One entry per definition, in pre-order; None when `ast` cannot parse the source."""
    try:
        with warnings.catch_warnings():  # e.g. invalid escape sequences: not ours to report
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    triggers = tuple(triggers)
    needles = (*triggers, *_watched_names(tree, triggers))
    lines = source.splitlines(keepends=True)
    result = []
    for node, nested in _definitions_with_nested(tree):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        text = "".join(lines[first - 1 : node.end_lineno])
        result.append(Definition(node.name, not any(n in text for n in needles), nested))
    return result
