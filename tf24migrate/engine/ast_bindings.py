"""The names a Python statement binds in its scope, read from Python's `ast`: what the statement
plan records of each statement it skips (`pruning`), so that the transformer binds them without
walking it (`scopes.ScopeTracker.bind_skipped`), and what the doctests' examples import (`doctests`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

Bindings = tuple[tuple[str, str | None, bool], ...]  # what `bindings` yields

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


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
