"""The one pass over a module: tracks scopes and shims, and runs every active rule's handlers.

`MigrationTransformer` is a LibCST transformer. While it walks the tree it keeps the scopes (see
`names`), whether it is inside a compatibility shim, and the imports or statements that rules
asked to add. It calls each rule's `leave_<NodeType>` handler with itself as the rule context
(`ctx`): rules ask it for qualified names and spellings, and report through it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import libcst as cst

from tf24migrate.findings import Fix
from tf24migrate.names import (
    TENSORFLOW,
    Binding,
    Scope,
    dotted_parts,
    head_name,
    import_bindings,
    is_tensorflow,
    normalize,
    target_names,
)
from tf24migrate.quiet_definitions import Definition, PlanMismatch
from tf24migrate.rules import Rule

_SHIM_EXCEPTIONS = {"ImportError", "ModuleNotFoundError", "AttributeError"}
_VERSION_WORDS = {"__version__", "VERSION", "LooseVersion", "parse_version", "Version"}
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _concrete_subclasses(*bases: type) -> set[type]:
    found, stack = set(), list(bases)
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if not getattr(cls, "__abstractmethods__", None):
            found.add(cls)
    return found


# Whitespace, comments, punctuation and operators: they bind no name and hold no expression, so
# their subtrees are not walked (over half of a module's nodes). Speed only: the output is the same.
_INERT: frozenset[type] = frozenset(
    {
        cst.SimpleWhitespace,
        cst.ParenthesizedWhitespace,
        cst.TrailingWhitespace,
        cst.EmptyLine,
        cst.Newline,
        cst.Comment,
        cst.Dot,
        cst.Comma,
        cst.Colon,
        cst.Semicolon,
        cst.AssignEqual,
        cst.LeftParen,
        cst.RightParen,
        cst.LeftSquareBracket,
        cst.RightSquareBracket,
        cst.LeftCurlyBrace,
        cst.RightCurlyBrace,
        cst.ImportStar,
        cst.Asynchronous,
        cst.FormattedStringText,
        *_concrete_subclasses(
            cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp
        ),
    }
)
_COMPREHENSION_TYPES = frozenset(_COMPREHENSIONS)
_SCOPES = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda, *_COMPREHENSIONS})
_STATEMENTS = frozenset({cst.SimpleStatementLine, *_concrete_subclasses(cst.BaseCompoundStatement)})
_ASSIGNMENTS = frozenset({cst.Assign, cst.AnnAssign, cst.AugAssign})


@dataclass
class Report:
    """A rule hit as the transformer saw it; the engine turns it into a `Finding`."""

    rule: Rule
    node: cst.CSTNode
    message: str
    fix: Fix | None
    applied: bool


def code_for(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _exception_names(handler: cst.ExceptHandler) -> set[str]:
    if handler.type is None:
        return set()
    types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    names = set()
    for item in types:
        node = item.value if isinstance(item, cst.Element) else item
        parts = dotted_parts(node)
        if parts:
            names.add(parts[-1])
    return names


def _mentions_version_check(node: cst.CSTNode) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            parts = dotted_parts(current.func)
            if parts and parts[-1] in ("hasattr", "getattr"):
                return True
        if isinstance(current, cst.Name) and current.value in _VERSION_WORDS:
            return True
        stack.extend(current.children)
    return False


def is_shim(node: cst.CSTNode) -> bool:
    """A `try` catching ImportError/AttributeError, or an `if` testing hasattr or a version."""
    if isinstance(node, cst.Try):
        return any(_exception_names(h) & _SHIM_EXCEPTIONS for h in node.handlers)
    if isinstance(node, cst.If):
        return _mentions_version_check(node.test)
    return False


class MigrationTransformer(cst.CSTTransformer):
    """Runs `rules` over one module. See the module docstring."""

    def __init__(
        self,
        rules: Sequence[Rule],
        *,
        source: str,
        unsafe_fixes: bool = False,
        excluded: Iterable[tuple[str, int]] = (),
        definitions: Sequence[Definition] | None = None,
    ) -> None:
        super().__init__()
        self._definitions = definitions  # which def/class bodies to leave unvisited (quiet_definitions)
        self._next_definition = 0
        self.source = source
        self.unsafe_fixes = unsafe_fixes
        self.excluded = set(excluded)  # (code, id(node)) pairs silenced by suppression comments
        self.reports: list[Report] = []
        self.scope = Scope("module")
        self.rule: Rule | None = None
        self._handlers: dict[str, list[tuple[Rule, Callable]]] = {}
        for rule in rules:
            for node_type, handler in rule.handlers().items():
                self._handlers.setdefault(node_type, []).append((rule, handler))
        self._inert = frozenset(t for t in _INERT if t.__name__ not in self._handlers)
        self._shim_depth = 0
        self._handler_depth = 0
        self._not_references: set[int] = set()
        self._alias_bindings: dict[int, Binding] = {}
        self._tentative: list[tuple[str, object]] = []
        self._module_imports: dict[str, str] = {}  # local name -> module, for added imports
        self._statements_after: list[cst.BaseStatement] = []

    # ----------------------------------------------------------------- API for rules (ctx)

    @property
    def in_shim(self) -> bool:
        return self._shim_depth > 0

    def is_reference(self, node: cst.Name) -> bool:
        """Whether a `Name` node is an expression (not an attribute, keyword, or definition name)."""
        return id(node) not in self._not_references

    def binding(self, name: str) -> Binding | None:
        return self.scope.lookup(name)

    def alias_binding(self, alias: cst.ImportAlias) -> Binding | None:
        return self._alias_bindings.get(id(alias))

    def qualified_name(self, node: cst.CSTNode) -> str | None:
        """The TensorFlow-normalised qualified name of a dotted expression, if it is an import."""
        parts = dotted_parts(node)
        if not parts:
            return None
        binding = self.scope.lookup(parts[0])
        if binding is None or not binding.is_import:
            return None
        return normalize(".".join([binding.qualified_name, *parts[1:]]))

    def resolves_to_module_other_than_tensorflow(self, node: cst.CSTNode) -> bool:
        """Whether an expression is rooted in an import of something that is not TensorFlow."""
        head = head_name(node)
        if head is None:
            return False
        binding = self.scope.lookup(head.value)
        return binding is not None and binding.is_import and not is_tensorflow(binding.qualified_name)

    def spell(self, qualified_name: str, like: cst.CSTNode | None = None) -> cst.BaseExpression | None:
        """An expression naming `qualified_name` the way this file names TensorFlow things.

        Uses the head of `like` when its import covers the name (keeping the user's alias), else
        another visible import that covers it, else a new `import tensorflow as tf` (committed only
        if the fix that needs it is applied). None when no spelling is possible.
        """
        candidates: list[tuple[cst.Name | str, str]] = []
        head = head_name(like) if like is not None else None
        if head is not None:
            binding = self.scope.lookup(head.value)
            if binding is not None and binding.is_import:
                candidates.append((head, normalize(binding.qualified_name)))
        others = sorted(
            (b for b in self.scope.visible_imports() if b.renamed_to is None),
            key=lambda b: -len(b.qualified_name),
        )
        candidates.extend((b.name, normalize(b.qualified_name)) for b in others)
        candidates.extend((local, module) for local, module in self._module_imports.items())
        for base, prefix in candidates:
            if qualified_name == prefix or qualified_name.startswith(prefix + "."):
                rest = qualified_name[len(prefix) + 1 :].split(".") if qualified_name != prefix else []
                return self._attribute_chain(base, rest)
        if is_tensorflow(qualified_name):
            local = self._free_name_for_tensorflow()
            if local is not None:
                self._tentative.append(("import", local))
                rest = qualified_name[len(TENSORFLOW) + 1 :].split(".")
                return self._attribute_chain(local, rest if qualified_name != TENSORFLOW else [])
        return None

    def add_statement_after(self, statement: cst.BaseStatement) -> None:
        """Queue a statement to follow the current one, if the next report's fix is applied."""
        self._tentative.append(("statement", statement))

    def rename_binding(self, alias: cst.ImportAlias, new_name: str) -> None:
        """Record that an imported name is now `new_name`: later references follow it."""
        binding = self._alias_bindings.get(id(alias))
        if binding is not None:
            self._tentative.append(("rename", (binding, new_name)))

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        *,
        replacement: cst.CSTNode | cst.RemovalSentinel | None = None,
        fix: Fix | None = None,
    ):
        """Record a finding at `node` (an original node). Returns `replacement` when the fix is
        applied, else None, so a handler can write `return ctx.report(...) or updated`."""
        tentative, self._tentative = self._tentative, []
        rule = self.rule
        assert rule is not None, "report() outside a rule handler"
        if (self.in_shim and not rule.runs_in_shims) or (rule.code, id(node)) in self.excluded:
            return None
        if replacement is not None and fix is None:
            fix = rule.fix or Fix.SAFE
        if replacement is None:
            fix = None
        applied = fix is Fix.SAFE or (fix is Fix.UNSAFE and self.unsafe_fixes)
        if fix is Fix.UNSAFE and not applied and isinstance(replacement, cst.CSTNode):
            message = f"{message} Unsafe fix (apply with --unsafe-fixes): `{code_for(replacement).strip()}`"
        self.reports.append(Report(rule, node, message, fix, applied))
        if not applied:
            return None
        for kind, value in tentative:
            if kind == "import":
                self._module_imports[value] = TENSORFLOW
            elif kind == "statement":
                self._statements_after.append(value)
            elif kind == "rename":
                binding, new_name = value
                binding.renamed_to = new_name
        return replacement

    # ------------------------------------------------------------------------ traversal

    def on_visit(self, node: cst.CSTNode) -> bool:
        node_type = type(node)
        if node_type in self._inert:
            return False
        if node_type is cst.Name or node_type is cst.SimpleStatementLine:
            return True  # the commonest nodes that need nothing here
        if node_type is cst.Attribute:
            self._not_references.add(id(node.attr))
        elif node_type is cst.Arg:
            if node.keyword is not None:
                self._not_references.add(id(node.keyword))
        elif node_type is cst.Import or node_type is cst.ImportFrom:
            self._visit_import(node)
        elif node_type is cst.FunctionDef or node_type is cst.ClassDef:
            self._not_references.add(id(node.name))
            self._bind(node.name.value, node)
            self.scope = Scope("function" if node_type is cst.FunctionDef else "class", self.scope)
            if self._definitions is not None:
                return self._visit_definition_body(node)
        elif node_type is cst.Lambda:
            self.scope = Scope("function", self.scope)
        elif node_type is cst.Param:
            self._not_references.add(id(node.name))
            self._bind(node.name.value, node)
        elif node_type in _COMPREHENSION_TYPES:
            self.scope = Scope("comprehension", self.scope)
            for_in = node.for_in
            while for_in is not None:
                for name in target_names(for_in.target):
                    self._bind(name.value, for_in)
                for_in = for_in.inner_for_in
        elif node_type is cst.For:
            for name in target_names(node.target):
                self._bind(name.value, node)
        elif node_type is cst.ExceptHandler:
            self._handler_depth += 1
            if node.name is not None:
                for name in target_names(node.name.name):
                    self._bind(name.value, node)
        elif node_type is cst.Global or node_type is cst.Nonlocal:
            for item in node.names:
                self._not_references.add(id(item.name))
        if (node_type is cst.Try or node_type is cst.If) and is_shim(node):
            self._shim_depth += 1
        return True

    def _visit_definition_body(self, node: cst.FunctionDef | cst.ClassDef) -> bool:
        index = self._next_definition
        if index >= len(self._definitions) or self._definitions[index].name != node.name.value:
            raise PlanMismatch(node.name.value)
        definition = self._definitions[index]
        self._next_definition += 1 + (definition.nested if definition.quiet else 0)
        return not definition.quiet

    # LibCST looks up a `visit_<Node>_<field>` method for every field of every node; there are none.
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        original_type = type(original)
        if original_type in self._inert:
            return updated
        result = updated
        for rule, handler in self._handlers.get(original_type.__name__, ()):
            self.rule = rule
            result = handler(self, original, result)
            self.rule = None
            if type(result) is not type(original):
                break
        if original_type is cst.Name:
            if type(result) is cst.Name:
                result = self._follow_renamed_binding(original, result)
            return result
        if original_type in _STATEMENTS:
            result = self._flush_statements(result)
        elif original_type is cst.Module:
            result = self._add_imports(result)
        self._leave_scope(original, original_type)
        return result

    # ------------------------------------------------------------------------ internals

    def _bind(self, name: str, node: cst.CSTNode | None, qualified_name: str | None = None) -> Binding:
        binding = Binding(name, qualified_name, node, in_handler=self._handler_depth > 0)
        self.scope.bind(binding)
        return binding

    def _visit_import(self, node: cst.Import | cst.ImportFrom) -> None:
        for local, qualified_name, alias in import_bindings(node):
            self._alias_bindings[id(alias)] = self._bind(local, alias, qualified_name)
        for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
            for part in _names_in(alias):
                self._not_references.add(id(part))
        if isinstance(node, cst.ImportFrom) and node.module is not None:
            for part in _names_in(node.module):
                self._not_references.add(id(part))

    def _leave_scope(self, original: cst.CSTNode, original_type: type) -> None:
        if original_type in _SCOPES:
            assert self.scope.parent is not None
            self.scope = self.scope.parent
        elif original_type is cst.ExceptHandler:
            self._handler_depth -= 1
        elif original_type in _ASSIGNMENTS:
            targets = (
                [t.target for t in original.targets]
                if isinstance(original, cst.Assign)
                else [original.target]
            )
            for target in targets:
                for name in target_names(target):
                    self._bind(name.value, original)
        elif original_type is cst.NamedExpr:
            for name in target_names(original.target):
                self._bind(name.value, original)
        elif original_type is cst.WithItem and original.asname is not None:
            for name in target_names(original.asname.name):
                self._bind(name.value, original)
        elif (original_type is cst.Try or original_type is cst.If) and is_shim(original):
            self._shim_depth -= 1

    def _follow_renamed_binding(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        if not self.is_reference(original):
            return updated
        binding = self.scope.lookup(original.value)
        if binding is not None and binding.renamed_to and binding.name == original.value:
            return updated.with_changes(value=binding.renamed_to)
        return updated

    def _flush_statements(self, updated):
        if not self._statements_after or not isinstance(updated, cst.SimpleStatementLine):
            return updated
        extra, self._statements_after = self._statements_after, []
        return cst.FlattenSentinel([updated, *extra])

    def _free_name_for_tensorflow(self) -> str | None:
        for local, module in self._module_imports.items():
            if module == TENSORFLOW:
                return local
        for local in ("tf", "tensorflow"):
            if not self.scope.ever_bound(local) and not re.search(rf"\b{local}\b", self.source):
                return local
        return None

    def _add_imports(self, module: cst.Module) -> cst.Module:
        if not self._module_imports:
            return module
        new = [
            cst.parse_statement(f"import {mod} as {local}\n" if mod != local else f"import {mod}\n")
            for local, mod in sorted(self._module_imports.items())
        ]
        body = list(module.body)
        index = _import_insertion_index(body)
        return module.with_changes(body=[*body[:index], *new, *body[index:]])

    @staticmethod
    def _attribute_chain(base: cst.Name | str, rest: list[str]) -> cst.BaseExpression:
        expr: cst.BaseExpression = cst.Name(base) if isinstance(base, str) else base
        for part in rest:
            expr = cst.Attribute(value=expr, attr=cst.Name(part))
        return expr


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    stack, names = [node], []
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            names.append(current)
        stack.extend(current.children)
    return names


def _is_import_line(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
    )


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _import_insertion_index(body: list[cst.BaseStatement]) -> int:
    """After the last top-level import; else after the docstring."""
    last_import = max((i for i, s in enumerate(body) if _is_import_line(s)), default=None)
    if last_import is not None:
        return last_import + 1
    return 1 if body and _is_docstring(body[0]) else 0
