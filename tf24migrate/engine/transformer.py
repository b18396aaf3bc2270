"""The one pass over a module: tracks scopes and shims, and runs every active rule's handlers.

`MigrationTransformer` is a LibCST transformer, driven by `walk` (which does not descend into its
`inert` node types). While it walks the tree it keeps the scopes (see `names`), whether it is
inside a compatibility shim, and the imports or statements that rules asked to add. It calls each
rule's `leave_<NodeType>` handler with itself as the rule context (`ctx`): rules ask it for
qualified names and spellings, and report through it.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import libcst as cst

from tf24migrate.engine import layout, pruning
from tf24migrate.engine.import_edits import (
    AddImportedNames,
    RemoveImportedNames,
    import_insertion_index,
    merge_from_imports,
)
from tf24migrate.engine.linked import Linked
from tf24migrate.engine.positions import StatementMap, node_spans
from tf24migrate.engine.pruning import StatementPlan
from tf24migrate.engine.shims import is_shim
from tf24migrate.engine.walk import walk
from tf24migrate.model.errors import RuleError
from tf24migrate.model.findings import Fix, Span
from tf24migrate.model.target import DEFAULT_TARGET, Target, too_new_note
from tf24migrate.rules.base import Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.names import (
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

_INTERNAL_MODULES = ("tensorflow.python", "tensorflow.core", "tensorflow.tools")


def _is_public_tensorflow(module: str) -> bool:
    return (module == "tensorflow" or module.startswith("tensorflow.")) and not any(
        module == internal or module.startswith(internal + ".") for internal in _INTERNAL_MODULES
    )


def imports_public_tensorflow(source: str) -> bool:
    """Whether `source` imports TensorFlow's public API (`import tensorflow`, `from tensorflow
    import ...`, `tensorflow.keras`, ...), not only its internals (`tensorflow.python`,
    `tensorflow.core`, `tensorflow.tools`): a file importing only internals is TensorFlow's own
    implementation. Imports are read with Python's `ast`, so an example in a docstring does not count."""
    try:
        tree = pruning.parse_with_python(source)
    except (SyntaxError, ValueError, RecursionError):
        return True  # unknown: as before this check
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(_is_public_tensorflow(alias.name) for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and _is_public_tensorflow(node.module or ""):
            return True
    return False


_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_COMPOUND_TYPES = frozenset(
    {cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.Match}
)
_STATEMENT_TYPES = _COMPOUND_TYPES | {cst.SimpleStatementLine, cst.SimpleStatementSuite}
_SHIM_CANDIDATES = frozenset({cst.Try, cst.If})
_ONE_LINE = re.compile(r"\s*\n\s*")


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


@dataclass
class Report:
    """A rule hit as the transformer saw it; the engine turns it into a `Finding`."""

    rule: Rule
    node: cst.CSTNode
    message: str
    fix: Fix | None
    applied: bool
    statement: cst.CSTNode | None = None  # the top-level statement holding `node`, if known


class MigrationTransformer(cst.CSTTransformer):
    """Runs `rules` over one module. See the module docstring."""

    def __init__(
        self,
        rules: Sequence[Rule],
        *,
        source: str,
        unsafe_fixes: bool = False,
        excluded: Iterable[tuple[str, int]] = (),
        declined: Iterable[tuple[str, int]] = (),
        plan: StatementPlan | None = None,
        statements: StatementMap | None = None,
        target: Target = DEFAULT_TARGET,
        blocked: dict[object, str] | None = None,
    ) -> None:
        super().__init__()
        self.source = source
        self.unsafe_fixes = unsafe_fixes
        self.target = target  # fixes whose new spelling is newer than this are reported, not applied
        self.excluded = set(excluded)  # (code, id(node)) pairs silenced by suppression comments
        self.declined = set(declined)  # (code, id(node)) pairs reported but not fixed (--interactive)
        self.reports: list[Report] = []
        self.scope = Scope("module")
        self.rule: Rule | None = None
        self._handlers, self.inert = _dispatch(tuple(rules))
        self._shims: set[int] = set()  # ids of the shim statements being visited
        self._handler_depth = 0
        self._not_references: set[int] = set()
        self._alias_bindings: dict[int, Binding] = {}
        self._tentative: list[tuple[str, object]] = []
        self._module_imports: dict[str, str] = {}  # local name -> module, for added imports
        self._statements_after: list[cst.BaseStatement] = []
        self.plan = plan
        self.statements = statements
        self._leaving: cst.CSTNode | None = None  # the node whose handlers are running
        self._pruned: set[int] = set()
        self._walrus = ":=" in source  # only then can an expression of a skipped statement bind a name
        self._ancestors: list[cst.CSTNode] = []  # the original nodes around the one being left
        self._module: cst.Module | None = None
        self._import_of_alias: dict[int, cst.ImportFrom] = {}  # id(alias) -> its statement
        self._left_imports: dict[int, cst.ImportFrom] = {}  # id(original) -> the node left in the tree
        self._names_to_import: dict[int, list[str]] = {}  # id(original ImportFrom) -> names to add
        # Fixes that must not be applied alone (see `Linked`): what earlier passes blocked, and
        # what this pass found must be blocked.
        self.blocked: dict[object, str] = dict(blocked or {})
        self.newly_blocked: dict[object, str] = {}
        self._linked = Linked()

    # ----------------------------------------------------------------- API for rules (ctx)

    @property
    def in_shim(self) -> bool:
        return bool(self._shims)

    def is_reference(self, node: cst.Name) -> bool:
        """Whether a `Name` node is an expression (not an attribute, keyword, or definition name)."""
        return id(node) not in self._not_references

    def binding(self, name: str) -> Binding | None:
        return self.scope.lookup(name)

    def alias_binding(self, alias: cst.ImportAlias) -> Binding | None:
        return self._alias_bindings.get(id(alias))

    @property
    def ancestors(self) -> list[cst.CSTNode]:
        """The original nodes enclosing the node being left, innermost first (its parent first)."""
        return self._ancestors[::-1]

    @functools.cached_property
    def imports_public_tensorflow(self) -> bool:
        """See `imports_public_tensorflow` (computed on first use: few rules ask)."""
        return imports_public_tensorflow(self.source)

    @functools.cached_property
    def line_length(self) -> int:
        """The line length of the file's own code: its longest line, and at least 79."""
        return max([79, *(len(line) for line in self.source.splitlines())])

    def line_around(self, node: cst.CSTNode) -> tuple[str, str]:
        """The text of the source line before an original node starts, and after it ends."""
        lines, span = self.node_lines(node)
        return lines[0][: span.column - 1], lines[-1][span.end_column - 1 :]

    def node_lines(self, node: cst.CSTNode) -> tuple[list[str], Span]:
        """The whole source lines an original node is on, and where it is."""
        assert self._module is not None
        if self.statements is not None:
            span = self.statements.spans({id(node): (node, self._top_statement())})[id(node)]
            return [self.statements.line(n) for n in range(span.line, span.end_line + 1)], span
        span = node_spans(self._module, [node])[id(node)]
        return self._module.code.splitlines()[span.line - 1 : span.end_line], span

    def qualified_name(self, node: cst.CSTNode) -> str | None:
        """The TensorFlow-normalised qualified name of a dotted expression, if it is an import.

        None for the dotted names of import statements themselves (`import tensorflow.python.x`),
        which are module paths, not uses."""
        parts = dotted_parts(node)
        if not parts or id(head_name(node)) in self._not_references:
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
                base = cst.Name(binding.renamed_to) if binding.renamed_to else head
                candidates.append((base, normalize(binding.spelled_name)))
        others = sorted(
            (b for b in self.scope.visible_imports() if b.renamed_to is None),
            key=lambda b: -len(b.spelled_name),
        )
        candidates.extend((b.name, normalize(b.spelled_name)) for b in others)
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

    def drop_use(self, name: cst.Name) -> None:
        """Record that the next report's fix removes this use of an imported name. An import whose
        every use was removed this way is removed too (its uses all now reach the new API)."""
        binding = self.scope.lookup(name.value)
        if binding is not None and binding.is_import and self.is_reference(name):
            self._tentative.append(("drop", binding))

    def add_statement_after(self, statement: cst.BaseStatement) -> None:
        """Queue a statement to follow the current one, if the next report's fix is applied."""
        self._tentative.append(("statement", statement))

    def rename_binding(self, alias: cst.ImportAlias, new_name: str) -> None:
        """Record that an imported name is now `new_name`: later references follow it."""
        binding = self._alias_bindings.get(id(alias))
        if binding is not None:
            self._tentative.append(("rename", (binding, new_name)))

    def move_binding(self, alias: cst.ImportAlias, new_qualified_name: str) -> None:
        """Record that an import now binds `new_qualified_name`, if the next report's fix is applied.

        References through it still resolve to the old name (so rules match them), and `spell`
        spells new names through it (`mp.X` stays `mp.Y` once `mp` is the new module).
        """
        binding = self._alias_bindings.get(id(alias))
        if binding is not None:
            self._tentative.append(("move", (binding, new_qualified_name)))

    def blocked_reason(self, key: object) -> str | None:
        """Why the fix keyed by `key` (an original node, or a rule's own key) must not be applied in
        this file, as found by an earlier pass; None when it may be."""
        return self.blocked.get(id(key) if isinstance(key, cst.CSTNode) else key)

    def block(self, key: object, reason: str) -> None:
        """Record that the fix keyed by `key` must not be applied: the engine runs the rules again,
        and `blocked_reason(key)` says why."""
        key = id(key) if isinstance(key, cst.CSTNode) else key
        if key not in self.blocked and key not in self.newly_blocked:
            self.newly_blocked[key] = reason

    def track_uses(self, alias: cst.ImportAlias) -> None:
        """Record that the next report's fix, if applied, changes what the name `alias` imports,
        so every use of the name must be migrated by an applied fix, or kept valid (`keep_use`):
        otherwise the fix is blocked (`blocked_reason(alias)`)."""
        binding = self._alias_bindings.get(id(alias))
        if binding is not None:
            self._tentative.append(("track", binding))

    def keep_use(self, name: cst.Name) -> None:
        """Record that this use of an imported name stays valid when the import changes."""
        self._linked.kept.add(id(name))

    def link(self, key: object, member: str) -> None:
        """Make the next report's fix one of a set keyed by `key` that is applied all together or
        not at all: if any of them is not applied, or `block(key, ...)` is called, none is."""
        self._tentative.append(("link", (key, member)))

    def import_alongside(self, name: cst.Name, new_name: str) -> cst.Name | None:
        """`new_name` as a bare name, added to the `from ... import` statement that bound `name`
        (if the next report's fix is applied). None when `name` was not bound by such a statement
        or `new_name` is already bound to something else."""
        binding = self.scope.lookup(name.value)
        if binding is None or not binding.is_import or binding.node is None:
            return None
        statement = self._import_of_alias.get(id(binding.node))
        if statement is None:
            return None
        wanted = f"{binding.qualified_name.rsplit('.', 1)[0]}.{new_name}"
        existing = self.scope.lookup(new_name)
        if existing is not None:
            return cst.Name(new_name) if existing.qualified_name == wanted else None
        if self.scope.ever_bound(new_name) or re.search(rf"\b{new_name}\b", self.source):
            return None
        self._tentative.append(("import_from", (statement, new_name)))
        return cst.Name(new_name)

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
        links = [value for kind, value in tentative if kind == "link"]
        if (self.in_shim and not rule.runs_in_shims) or (rule.code, id(node)) in self.excluded:
            for key, member in links:
                self.block(key, f"{member} is not migrated")
            return None
        if replacement is not None and fix is None:
            fix = rule.fix or Fix.SAFE
        if replacement is None:
            fix = None
        too_new = not self.target.allows(rule.new_since)  # the new spelling fails on the target
        applied = (fix is Fix.SAFE or (fix is Fix.UNSAFE and self.unsafe_fixes)) and (
            rule.code,
            id(node),
        ) not in self.declined
        applied = applied and not too_new
        if too_new:
            message = f"{message} {too_new_note(rule, self.target, fixable=fix is not None)}"
        elif fix is Fix.UNSAFE and not self.unsafe_fixes and isinstance(replacement, cst.CSTNode):
            rewrite = _ONE_LINE.sub(" ", code_for(replacement).strip())  # a finding is one line
            message = f"{message} Unsafe fix (apply with --unsafe-fixes): `{rewrite}`"
        self.reports.append(Report(rule, node, message, fix, applied, self._top_statement()))
        if not applied:
            for key, member in links:
                self.block(key, f"{member} is not migrated")
            return None
        if replacement is not None:
            self._linked.migrated(node)
        for kind, value in tentative:
            if kind == "import":
                self._module_imports[value] = TENSORFLOW
            elif kind == "statement":
                self._statements_after.append(value)
            elif kind == "drop":
                value.uses_dropped += 1
            elif kind == "rename":
                binding, new_name = value
                binding.renamed_to = new_name
            elif kind == "move":
                binding, new_qualified_name = value
                binding.moved_to = new_qualified_name
            elif kind == "track":
                self._linked.track(value)
            elif kind == "import_from":
                statement, new_name = value
                names = self._names_to_import.setdefault(id(statement), [])
                if new_name not in names:
                    names.append(new_name)
        return replacement

    # ------------------------------------------------------------------------ traversal

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        if self.plan is not None and kind in _STATEMENT_TYPES and self._prune(node):
            return False
        visit = _ON_VISIT.get(kind)
        if visit is not None:
            visit(self, node)
        if kind in _SHIM_CANDIDATES and is_shim(node):
            self._shims.add(id(node))
        self._ancestors.append(node)
        return True

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        kind = type(original)
        if self._pruned and id(original) in self._pruned:
            self._pruned.discard(id(original))
            return updated
        self._ancestors.pop()
        self._leaving = original
        result = updated
        for rule, handler in self._handlers.get(kind, ()):
            self.rule = rule
            try:
                result = handler(self, original, result)
            except Exception as error:
                raise RuleError([rule.code], f"failed ({type(error).__name__}: {error})") from error
            self.rule = None
            if type(result) is not kind:
                break
        leave = _ON_LEAVE.get(kind)
        if leave is not None:
            result = leave(self, original, result)
        if self._shims and id(original) in self._shims:
            self._shims.discard(id(original))
        return result

    # ------------------------------------------------------------------------ internals

    def _top_statement(self) -> cst.CSTNode | None:
        """The top-level statement holding the node being left (None for the module itself)."""
        if len(self._ancestors) > 1:
            return self._ancestors[1]
        return self._leaving if self._ancestors else None

    def _prune(self, node: cst.CSTNode) -> bool:
        """Skip a statement the plan marks uninteresting, binding its names from its ast node."""
        assert self.plan is not None
        if type(node) in _COMPOUND_TYPES:
            skipped = self.plan.take_compound(node)
            statements = [skipped] if skipped is not None else None
        else:
            body = node.body
            only_name = (
                body[0].value.value
                if len(body) == 1 and type(body[0]) is cst.Expr and type(body[0].value) is cst.Name
                else None
            )
            statements = self.plan.take_simple(len(body), only_name)
            if type(node) is cst.SimpleStatementSuite:
                return False  # one line of a statement being visited: never skipped alone
        if statements is None:
            return False
        for statement in statements:
            for name, qualified_name, in_handler in pruning.bindings(
                statement, self._handler_depth > 0, walrus=self._walrus
            ):
                self.scope.bind(Binding(name, qualified_name, None, in_handler=in_handler))
        self._pruned.add(id(node))
        return True

    # What each node type does to scopes and references, looked up by type (isinstance on
    # LibCST's abstract classes is slow, and this runs for every node).

    def _visit_attribute(self, node: cst.Attribute) -> None:
        self._not_references.add(id(node.attr))

    def _visit_arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_references.add(id(node.keyword))

    def _visit_definition(self, node: cst.FunctionDef | cst.ClassDef) -> None:
        self._not_references.add(id(node.name))
        self._bind(node.name.value, node)
        self.scope = Scope("function" if type(node) is cst.FunctionDef else "class", self.scope)

    def _visit_lambda(self, node: cst.Lambda) -> None:
        self.scope = Scope("function", self.scope)

    def _visit_param(self, node: cst.Param) -> None:
        self._not_references.add(id(node.name))
        self._bind(node.name.value, node)

    def _visit_comprehension(self, node) -> None:
        self.scope = Scope("comprehension", self.scope)
        for_in = node.for_in
        while for_in is not None:
            for name in target_names(for_in.target):
                self._bind(name.value, for_in)
            for_in = for_in.inner_for_in

    def _visit_for(self, node: cst.For) -> None:
        for name in target_names(node.target):
            self._bind(name.value, node)

    def _visit_except_handler(self, node: cst.ExceptHandler) -> None:
        self._handler_depth += 1
        if node.name is not None:
            for name in target_names(node.name.name):
                self._bind(name.value, node)

    def _visit_global(self, node: cst.Global | cst.Nonlocal) -> None:
        for item in node.names:
            self._not_references.add(id(item.name))

    def _leave_scope(self, original, result):
        assert self.scope.parent is not None
        self.scope = self.scope.parent
        return result

    def _leave_except_handler(self, original, result):
        self._handler_depth -= 1
        return result

    def _leave_assignment(self, original, result):
        if type(original) is cst.Assign:
            targets = [t.target for t in original.targets]
        elif type(original) is cst.WithItem:
            targets = [original.asname.name] if original.asname is not None else []
        else:
            targets = [original.target]
        for target in targets:
            for name in target_names(target):
                self._bind(name.value, original)
        return result

    def _leave_name(self, original: cst.Name, result):
        """Count a use of an imported name, and follow the import when a rule renamed the name."""
        if not self.is_reference(original):
            return result
        binding = self.scope.lookup(original.value)
        if binding is None or not binding.is_import:
            return result
        binding.uses += 1
        if binding.renamed_to and type(result) is cst.Name:
            self._linked.kept.add(id(original))  # the same object under its new name
            result = result.with_changes(value=binding.renamed_to)
        if self._linked.tracked:
            self._linked.use(binding, original, self._ancestors[-1] if self._ancestors else None)
        return result

    def _leave_statement(self, original, result):
        return self._flush_statements(result)

    def _visit_module(self, node: cst.Module) -> None:
        self._module = node

    def _leave_import_from(self, original, result):
        if type(result) is cst.ImportFrom:
            self._left_imports[id(original)] = result
        return result

    def _leave_module(self, original, result):
        for key, reason in self._linked.blocked():
            self.block(key, reason)
        result = self._add_names_to_import_statements(result)
        result = self._remove_unused_imports(result)
        return self._add_imports(result)

    def _bind(self, name: str, node: cst.CSTNode | None, qualified_name: str | None = None) -> Binding:
        binding = Binding(name, qualified_name, node, in_handler=self._handler_depth > 0)
        self.scope.bind(binding)
        return binding

    def _visit_import(self, node: cst.Import | cst.ImportFrom) -> None:
        for local, qualified_name, alias in import_bindings(node):
            self._alias_bindings[id(alias)] = self._bind(local, alias, qualified_name)
            if isinstance(node, cst.ImportFrom):
                self._import_of_alias[id(alias)] = node
        for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
            for part in _names_in(alias):
                self._not_references.add(id(part))
        if isinstance(node, cst.ImportFrom) and node.module is not None:
            for part in _names_in(node.module):
                self._not_references.add(id(part))

    def _flush_statements(self, updated):
        if not self._statements_after or not isinstance(updated, cst.SimpleStatementLine):
            return updated
        extra, self._statements_after = self._statements_after, []
        return cst.FlattenSentinel([updated, *merge_from_imports(extra)])

    def _add_names_to_import_statements(self, module: cst.Module) -> cst.Module:
        targets = {
            id(self._left_imports[key]): names
            for key, names in self._names_to_import.items()
            if key in self._left_imports
        }
        if not targets:
            return module
        return walk(module, AddImportedNames(targets))

    def _remove_unused_imports(self, module: cst.Module) -> cst.Module:
        """Drop the `from ... import` names whose every use a rule's applied fix rewrote away."""
        if "__all__" in self.source:  # a module may re-export what it imports
            return module
        targets: dict[int, set[str]] = {}
        for alias_id, binding in self._alias_bindings.items():
            statement = self._import_of_alias.get(alias_id)
            if statement is None or not binding.uses or binding.uses != binding.uses_dropped:
                continue
            left = self._left_imports.get(id(statement))
            if left is not None:
                targets.setdefault(id(left), set()).add(binding.name)
        return walk(module, RemoveImportedNames(targets)) if targets else module

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
        index = import_insertion_index(body)
        return module.with_changes(body=[*body[:index], *new, *body[index:]])

    @staticmethod
    def _attribute_chain(base: cst.Name | str, rest: list[str]) -> cst.BaseExpression:
        expr: cst.BaseExpression = cst.Name(base) if isinstance(base, str) else base
        for part in rest:
            expr = cst.Attribute(value=expr, attr=cst.Name(part))
        return expr


_DISPATCH: dict[tuple[int, ...], tuple[tuple[Rule, ...], dict[type, list], frozenset[type]]] = {}


def _dispatch(rules: tuple[Rule, ...]) -> tuple[dict[type, list[tuple[Rule, Callable]]], frozenset[type]]:
    """The handlers of `rules` by node type, and the inert node types none of them handles."""
    key = tuple(map(id, rules))
    if key not in _DISPATCH:
        handlers: dict[type, list[tuple[Rule, Callable]]] = {}
        for rule in rules:
            for node_type, handler in rule.handlers().items():
                handlers.setdefault(getattr(cst, node_type), []).append((rule, handler))
        _DISPATCH[key] = (rules, handlers, frozenset(_INERT - handlers.keys()))  # rules: keeps the ids alive
    _, handlers, inert = _DISPATCH[key]
    return handlers, inert


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    """The `Name` nodes of an import's dotted name or alias (`a.b.c`, `x as y`)."""
    if type(node) is cst.Name:
        return [node]
    if type(node) is cst.Attribute:
        return [*_names_in(node.value), node.attr]
    if type(node) is cst.ImportAlias:
        return [*_names_in(node.name), *(_names_in(node.asname.name) if node.asname is not None else ())]
    return []


_ON_VISIT = {
    cst.Module: MigrationTransformer._visit_module,
    cst.Attribute: MigrationTransformer._visit_attribute,
    cst.Arg: MigrationTransformer._visit_arg,
    cst.Import: MigrationTransformer._visit_import,
    cst.ImportFrom: MigrationTransformer._visit_import,
    cst.FunctionDef: MigrationTransformer._visit_definition,
    cst.ClassDef: MigrationTransformer._visit_definition,
    cst.Lambda: MigrationTransformer._visit_lambda,
    cst.Param: MigrationTransformer._visit_param,
    cst.For: MigrationTransformer._visit_for,
    cst.ExceptHandler: MigrationTransformer._visit_except_handler,
    cst.Global: MigrationTransformer._visit_global,
    cst.Nonlocal: MigrationTransformer._visit_global,
    **dict.fromkeys(_COMPREHENSIONS, MigrationTransformer._visit_comprehension),
}
_ON_LEAVE = {
    cst.ImportFrom: MigrationTransformer._leave_import_from,
    cst.Name: MigrationTransformer._leave_name,
    cst.Module: MigrationTransformer._leave_module,
    cst.ExceptHandler: MigrationTransformer._leave_except_handler,
    cst.Call: layout.lay_out_call,
    **dict.fromkeys(
        (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.WithItem),
        MigrationTransformer._leave_assignment,
    ),
    **dict.fromkeys((cst.Lambda, *_COMPREHENSIONS), MigrationTransformer._leave_scope),
    **dict.fromkeys(_STATEMENT_TYPES - {cst.SimpleStatementSuite}, MigrationTransformer._leave_statement),
}


def _leave_definition(self: MigrationTransformer, original, result):
    result = self._flush_statements(result)
    return self._leave_scope(original, result)


_ON_LEAVE[cst.FunctionDef] = _ON_LEAVE[cst.ClassDef] = _leave_definition
