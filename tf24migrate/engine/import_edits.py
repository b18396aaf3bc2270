"""The import edits of applied fixes, carried out after the pass as three steps over the new
module (`add_imported_names`, `remove_imported_names`, `add_imports`), and the helpers they share:
queued `from` imports merged by module, and where new imports go."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from tf24migrate.engine.walk import walk
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.names import is_import_line


def add_imported_names(module: cst.Module, targets: dict[cst.ImportFrom, list[str]]) -> cst.Module:
    """`module` with names appended to `from ... import` statements (the nodes of `module`)."""
    return walk(module, AddImportedNames(targets)) if targets else module


def remove_imported_names(
    module: cst.Module, targets: dict[cst.ImportFrom, set[str]], added: Iterable[cst.CSTNode] = ()
) -> cst.Module:
    """`module` with local names removed from `from ... import` statements (the nodes of
    `module`); a statement left with no name is removed. A top-level line removed so, followed by
    one of the statements `added` (`add_imports`), leaves that statement its blank lines."""
    if not targets:
        return module
    heirs = {id(statement) for statement in added}
    body = list(module.body)
    for index, statement in enumerate(body[:-1]):
        heir = body[index + 1]
        if (
            id(heir) in heirs
            and isinstance(heir, cst.SimpleStatementLine)
            and _removed_whole(statement, targets)
        ):
            assert isinstance(statement, cst.SimpleStatementLine)
            body[index + 1] = heir.with_changes(leading_lines=[*statement.leading_lines, *heir.leading_lines])
    return walk(module.with_changes(body=body), RemoveImportedNames(targets))


def _removed_whole(statement: cst.BaseStatement, targets: dict[cst.ImportFrom, set[str]]) -> bool:
    """Whether `statement` is a line of one `from ... import` whose every name is removed."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    node = statement.body[0]
    if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
        return False
    names = targets.get(node)
    return names is not None and all(_local_name(alias) in names for alias in node.names)


def add_imports(module: cst.Module, imports: dict[str, str]) -> cst.Module:
    """`module` with `import <module> as <local>` for each of `imports` (local -> module), sorted,
    after its last top-level import (else after its docstring); but before the first top-level
    statement that uses one of the locals (a fix's `tf.x` at module level, above a later import):
    after the last import before it."""
    if not imports:
        return module
    new = [
        cst.parse_statement(f"import {mod} as {local}\n" if mod != local else f"import {mod}\n")
        for local, mod in sorted(imports.items())
    ]
    body: list[cst.BaseStatement] = list(module.body)
    index = import_insertion_index(body)
    first_use = next((i for i, statement in enumerate(body[:index]) if _names_any(statement, imports)), None)
    if first_use is not None:
        index = import_insertion_index(body[:first_use])
    return module.with_changes(body=[*body[:index], *new, *body[index:]])


class _ImportStatementEdit(cst.CSTTransformer):
    """Edits import statements only: expressions and the insides of imports are not walked."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, (cst.BaseExpression, cst.ImportFrom, cst.Import))


class AddImportedNames(_ImportStatementEdit):
    """Appends names to given `from ... import` statements (found by identity)."""

    def __init__(self, targets: dict[cst.ImportFrom, list[str]]) -> None:
        super().__init__()
        self.targets = targets

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        names = self.targets.get(original)
        if not names or isinstance(updated.names, cst.ImportStar):
            return updated
        aliases = list(updated.names)
        last = aliases[-1]
        trailing_comma = last.comma
        separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        aliases[-1] = last.with_changes(comma=separator)
        aliases.extend(
            cst.ImportAlias(cst.Name(name), comma=separator if i < len(names) - 1 else trailing_comma)
            for i, name in enumerate(names)
        )
        return updated.with_changes(names=aliases)


class RemoveImportedNames(_ImportStatementEdit):
    """Removes names from given `from ... import` statements (found by identity), and a statement
    left with no name."""

    def __init__(self, targets: dict[cst.ImportFrom, set[str]]) -> None:
        super().__init__()
        self.targets = targets

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        local_names = self.targets.get(original)
        if not local_names or isinstance(updated.names, cst.ImportStar):
            return updated
        kept = [alias for alias in updated.names if _local_name(alias) not in local_names]
        if not kept:
            return cst.RemoveFromParent()
        if updated.rpar is None:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(names=kept)


def _local_name(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return code_for(alias.name)


def merge_from_imports(statements: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """Queued `from M import a` and `from M import b` as one `from M import a, b`."""
    merged: list[cst.BaseStatement] = []
    by_module: dict[str, int] = {}
    for statement in statements:
        body = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
        if (
            not isinstance(body, cst.ImportFrom)
            or isinstance(body.names, cst.ImportStar)
            or body.relative
            or body.module is None
        ):
            merged.append(statement)
            continue
        module = code_for(body.module)
        if module not in by_module:
            by_module[module] = len(merged)
            merged.append(statement)
            continue
        first = merged[by_module[module]]
        first_import = first.body[0] if isinstance(first, cst.SimpleStatementLine) else None
        # the statement this loop kept for the module
        assert isinstance(first_import, cst.ImportFrom) and not isinstance(first_import.names, cst.ImportStar)
        names = [
            *first_import.names[:-1],
            first_import.names[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
        ]
        merged[by_module[module]] = first.with_changes(
            body=[first_import.with_changes(names=[*names, *body.names])]
        )
    return merged


def _names_any(node: cst.CSTNode, names: dict[str, str]) -> bool:
    """Whether a `Name` of `names` occurs in `node`."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name) and current.value in names:
            return True
        stack.extend(current.children)
    return False


def is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def import_insertion_index(body: list[cst.BaseStatement]) -> int:
    """After the last top-level import; else after the docstring."""
    last_import = max((i for i, s in enumerate(body) if is_import_line(s)), default=None)
    if last_import is not None:
        return last_import + 1
    return 1 if body and is_docstring(body[0]) else 0
