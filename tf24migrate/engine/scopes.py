"""What names mean during the pass: the scopes, the bindings each statement makes, and which
`Name` nodes are references.

`ScopeTracker` follows the transformer's walk: `VISIT[type]` runs when a node is entered,
`LEAVE[type]` when it is left (looked up by exact type: `isinstance` on LibCST's abstract classes
is slow, and this runs for every node). A statement the pruning plan skips binds the names its
`ast` node binds instead (`bind_skipped`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

from tf24migrate.engine.ast_bindings import Bindings
from tf24migrate.rules.edits import BindingNode
from tf24migrate.rules.names import (
    Binding,
    Scope,
    dotted_parts,
    import_bindings,
    normalize,
    public_module,
    target_names,
)

COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


class ScopeTracker:
    """The scope of the node being visited, and what each import alias binds."""

    def __init__(self) -> None:
        self.scope = Scope("module")
        self.handler_depth = 0  # how many `except` handlers enclose the node
        self.not_references: set[cst.Name] = set()  # Names that are not expressions
        # What each import alias, and each assignment of a module alias (`mp = tf.a.b`), binds.
        self.alias_bindings: dict[BindingNode, Binding] = {}
        self._when_bound: dict[BindingNode, list[Callable[[Binding], None]]] = {}
        self.import_of_alias: dict[cst.ImportAlias, cst.ImportFrom] = {}  # the statement of each

    def is_reference(self, node: cst.Name) -> bool:
        return node not in self.not_references

    def bind(
        self,
        name: str,
        node: cst.CSTNode | None,
        qualified_name: str | None = None,
        module: str | None = None,
    ) -> Binding:
        binding = Binding(name, qualified_name, node, in_handler=self.handler_depth > 0, module=module)
        self.scope.bind(binding)
        return binding

    def when_bound(self, node: BindingNode, action: Callable[[Binding], None]) -> None:
        """Apply `action` to what `node` binds: now for an import (bound when it is entered), once
        the assignment is left for a module alias (a rule's fix comes before that)."""
        binding = self.alias_bindings.get(node)
        if binding is not None:
            action(binding)
        elif type(node) is cst.Assign:
            self._when_bound.setdefault(node, []).append(action)

    def bind_skipped(self, binds: Bindings) -> None:
        """Bind the names of a statement the transformer does not walk (`ast_bindings.bindings`)."""
        for name, qualified_name, in_handler, assigned in binds:
            module = public_module(self.qualified_name(assigned.split("."))) if assigned else None
            self.scope.bind(
                Binding(
                    name,
                    qualified_name,
                    None,
                    in_handler=in_handler or self.handler_depth > 0,
                    module=module,
                )
            )

    def qualified_name(self, parts: list[str]) -> str | None:
        """The qualified name of the dotted name `parts` (`["K", "update"]`) where the walk is, or
        None when its first name is not an import or a module alias (`rules.names.Binding`)."""
        binding = self.scope.lookup(parts[0])
        if binding is None or binding.stands_for is None:
            return None
        return normalize(".".join([binding.stands_for, *parts[1:]]))

    def reads_module_import_later(self, name: str) -> bool:
        """Whether `name`, read here, is the module's import of it read by a function (a `def`
        or a `lambda`, at any depth), which runs later, when the module may have bound it
        otherwise."""
        scope: Scope | None = self.scope
        deferred = False
        while scope is not None and scope.parent is not None:
            deferred = deferred or scope.kind == "function"
            scope = scope.parent
        if not deferred or scope is None:
            return False
        binding = self.scope.lookup(name)
        return binding is not None and binding.is_import and scope.bindings.get(name) is binding

    # ----------------------------------------------------------------- entering nodes

    def _visit_attribute(self, node: cst.Attribute) -> None:
        self.not_references.add(node.attr)

    def _visit_arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.not_references.add(node.keyword)

    def _visit_definition(self, node: cst.FunctionDef | cst.ClassDef) -> None:
        self.not_references.add(node.name)
        self.bind(node.name.value, node)
        self.scope = Scope("function" if type(node) is cst.FunctionDef else "class", self.scope)

    def _visit_lambda(self, node: cst.Lambda) -> None:
        self.scope = Scope("function", self.scope)

    def _visit_param(self, node: cst.Param) -> None:
        self.not_references.add(node.name)
        self.bind(node.name.value, node)

    def _visit_comprehension(self, node) -> None:
        self.scope = Scope("comprehension", self.scope)
        for_in = node.for_in
        while for_in is not None:
            for name in target_names(for_in.target):
                self.bind(name.value, for_in)
            for_in = for_in.inner_for_in

    def _visit_for(self, node: cst.For) -> None:
        for name in target_names(node.target):
            self.bind(name.value, node)

    def _visit_except_handler(self, node: cst.ExceptHandler) -> None:
        self.handler_depth += 1
        if node.name is not None:
            for name in target_names(node.name.name):
                self.bind(name.value, node)

    def _visit_assign_target(self, node: cst.AssignTarget) -> None:
        """The names an assignment binds are no uses of what they named before (`x = ...`)."""
        self.not_references.update(target_names(node.target))

    def _visit_global(self, node: cst.Global | cst.Nonlocal) -> None:
        for item in node.names:
            self.not_references.add(item.name)

    def _visit_import(self, node: cst.Import | cst.ImportFrom) -> None:
        for local, qualified_name, alias in import_bindings(node):
            self.alias_bindings[alias] = self.bind(local, alias, qualified_name)
            if isinstance(node, cst.ImportFrom):
                self.import_of_alias[alias] = node
        for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
            for part in _names_in(alias):
                self.not_references.add(part)
        if isinstance(node, cst.ImportFrom) and node.module is not None:
            for part in _names_in(node.module):
                self.not_references.add(part)

    # ----------------------------------------------------------------- leaving nodes

    def _leave_scope(self, original) -> None:
        assert self.scope.parent is not None
        self.scope = self.scope.parent

    def _leave_except_handler(self, original) -> None:
        self.handler_depth -= 1

    def _leave_assignment(self, original) -> None:
        if type(original) is cst.Assign:
            targets = [t.target for t in original.targets]
        elif type(original) is cst.WithItem:
            targets = [original.asname.name] if original.asname is not None else []
        else:
            targets = [original.target]
        if type(original) is cst.Assign and len(targets) == 1 and type(targets[0]) is cst.Name:
            parts = dotted_parts(original.value) if type(original.value) is cst.Attribute else None
            module = public_module(self.qualified_name(parts)) if parts else None
            binding = self.bind(targets[0].value, original, module=module)  # `K = tf.keras.backend`
            if module is not None:
                self.alias_bindings[original] = binding
                for action in self._when_bound.pop(original, ()):
                    action(binding)
            return
        for target in targets:
            for name in target_names(target):
                self.bind(name.value, original)

    # By node type, so each takes the node of its key's type.
    VISIT: dict[type, Callable[[ScopeTracker, Any], None]]
    LEAVE: dict[type, Callable[[ScopeTracker, Any], None]]


ScopeTracker.VISIT = {
    cst.Attribute: ScopeTracker._visit_attribute,
    cst.Arg: ScopeTracker._visit_arg,
    cst.Import: ScopeTracker._visit_import,
    cst.ImportFrom: ScopeTracker._visit_import,
    cst.FunctionDef: ScopeTracker._visit_definition,
    cst.ClassDef: ScopeTracker._visit_definition,
    cst.Lambda: ScopeTracker._visit_lambda,
    cst.Param: ScopeTracker._visit_param,
    cst.For: ScopeTracker._visit_for,
    cst.ExceptHandler: ScopeTracker._visit_except_handler,
    cst.Global: ScopeTracker._visit_global,
    cst.AssignTarget: ScopeTracker._visit_assign_target,
    cst.Nonlocal: ScopeTracker._visit_global,
    **dict.fromkeys(COMPREHENSIONS, ScopeTracker._visit_comprehension),
}
ScopeTracker.LEAVE = {
    cst.ExceptHandler: ScopeTracker._leave_except_handler,
    **dict.fromkeys(
        (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.WithItem),
        ScopeTracker._leave_assignment,
    ),
    **dict.fromkeys((cst.Lambda, cst.FunctionDef, cst.ClassDef, *COMPREHENSIONS), ScopeTracker._leave_scope),
}


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    """The `Name` nodes of an import's dotted name or alias (`a.b.c`, `x as y`)."""
    if type(node) is cst.Name:
        return [node]
    if type(node) is cst.Attribute:
        return [*_names_in(node.value), node.attr]
    if type(node) is cst.ImportAlias:
        return [*_names_in(node.name), *(_names_in(node.asname.name) if node.asname is not None else ())]
    return []
