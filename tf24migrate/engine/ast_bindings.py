"""The names a Python statement binds in its scope, read from Python's `ast`: what the statement
plan records of each statement it skips (`pruning`), so that the transformer binds them without
walking it (`scopes.ScopeTracker.bind_skipped`), and what the doctests' examples import (`doctests`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tf24migrate.rules.names import dotted_assignment

Binds = tuple[str, str | None, bool, str | None]  # one name a statement binds (`bindings`)
Bindings = tuple[Binds, ...]

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def bindings(statement: ast.AST, in_handler: bool = False, *, walrus: bool = True) -> Iterator[Binds]:
    """(name, qualified name for imports else None, bound in an except handler, the dotted name
    it is assigned else None) for each name a statement binds in its own scope, in document order.
    The dotted name is that of `NAME = a.b.c`, which the scope resolves when it binds the name
    (`K = tf.keras.backend`: an alias of a module, `rules.names.public_module`). With
    `walrus=False` (the source has no `:=`), expressions other than assignment targets are not
    searched: nothing in them binds."""
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.asname:
                yield alias.asname, alias.name, in_handler, None
            else:
                top = alias.name.split(".")[0]
                yield top, top, in_handler, None
        return
    if isinstance(statement, ast.ImportFrom):
        if statement.level == 0 and statement.module:
            for alias in statement.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, f"{statement.module}.{alias.name}", in_handler, None
        return
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield statement.name, None, in_handler, None
        return
    if isinstance(statement, (ast.Lambda, *_COMPREHENSIONS)):
        return
    if isinstance(statement, ast.Name) and isinstance(statement.ctx, ast.Store):
        yield statement.id, None, in_handler, None
        return
    if (assigned := dotted_assignment(statement)) is not None:
        yield assigned[0], None, in_handler, assigned[1]
        return
    if (
        not walrus
        and isinstance(statement, ast.expr)
        and not isinstance(getattr(statement, "ctx", None), ast.Store)
    ):
        return
    if isinstance(statement, ast.ExceptHandler):
        if statement.name:
            yield statement.name, None, True, None
        for child in statement.body:
            yield from bindings(child, True, walrus=walrus)
        return
    for node in ast.iter_child_nodes(statement):
        yield from bindings(node, in_handler, walrus=walrus)
