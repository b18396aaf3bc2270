"""`FileContext`: the `RuleContext` of one pass over one module, and the edits its fixes bring.

Rules ask it what names mean (through the `ScopeTracker` the pass keeps) and report through it.
A report's fix is applied or not (`report`); when it is, the edits that came with it
(`tf24migrate.rules.edits`) are carried out: those that change the pass (a binding renamed or
moved, a statement to put after the current one) at once, the import edits after the pass
(`finish`, by the steps of `tf24migrate.engine.import_edits`).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import libcst as cst

from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine import import_edits
from tf24migrate.engine.linked import Linked
from tf24migrate.engine.positions import StatementMap, node_spans
from tf24migrate.engine.scopes import ScopeTracker
from tf24migrate.engine.shims import guard_of, optional_internals, version_bindings, version_names
from tf24migrate.engine.suppressions import is_suppressed
from tf24migrate.model.exhaustive import assert_never
from tf24migrate.model.findings import Fix, Span
from tf24migrate.model.target import Versions, first_line_versions, too_new_note
from tf24migrate.rules.base import Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import EVIDENCE, Replacement, RuleContext
from tf24migrate.rules.edits import (
    AddImport,
    AddStatementAfter,
    AnyEdit,
    BindingNode,
    DropUse,
    Edit,
    ImportAlongside,
    MoveBinding,
    RenameBinding,
    TrackUses,
)
from tf24migrate.rules.names import (
    TENSORFLOW,
    Binding,
    dotted_parts,
    head_name,
    imported_conditionally,
    is_tensorflow,
    normalize,
    quoted,
    rebound_at_module_level,
)

_ONE_LINE = re.compile(r"\s*\n\s*")


@dataclass
class Report:
    """A rule hit as the pass saw it; the engine turns it into a `Finding`."""

    rule: Rule
    node: cst.CSTNode
    message: str
    fix: Fix | None
    applied: bool
    statement: cst.CSTNode | None = None  # the top-level statement holding `node`, if known
    evidence: str | None = None
    note: bool = False  # a note whatever the rule's severity (`RuleContext.report`)
    versions: Versions | None = None  # the finding's, when not the rule's (`RuleContext.report`)


@dataclass
class Cursor:
    """Where the pass is: kept by the transformer, read by the context."""

    ancestors: list[cst.CSTNode] = field(default_factory=list)  # outermost first
    leaving: cst.CSTNode | None = None  # the node whose handlers are running
    shims: set[cst.CSTNode] = field(default_factory=set)  # the shim statements around it
    rule: Rule | None = None  # the rule whose handler is running

    def top_statement(self) -> cst.CSTNode | None:
        """The top-level statement holding the node being left (None for the module itself)."""
        if len(self.ancestors) > 1:
            return self.ancestors[1]
        return self.leaving if self.ancestors else None


class FileContext(RuleContext):
    """The `tf24migrate.rules.context.RuleContext` of one pass. See the module docstring."""

    def __init__(
        self,
        source: str,
        settings: Settings,
        *,
        blocked: dict[object, str] | None = None,
        statements: StatementMap | None = None,
        suppressions: dict[int, frozenset[str] | None] | None = None,
        locate: Callable[[cst.CSTNode, cst.CSTNode | None], Span] | None = None,
    ) -> None:
        self.source = source
        self.scopes = ScopeTracker()
        self.cursor = Cursor()
        self.module: cst.Module | None = None  # the original module, once the pass entered it
        self.reports: list[Report] = []
        self._unsafe_fixes = settings.unsafe_fixes
        self._target = settings.target  # fixes whose new spelling is newer are reported, not applied
        # Suppression comments (`line_suppressions`) and the (code, line, column) of findings
        # whose fixes were declined (--interactive), checked where `locate` places a node.
        self._suppressions = suppressions or {}
        self._declined = frozenset((f.code, f.line, f.column) for f in settings.declined)
        self._imported_elsewhere = dict(settings.imported_elsewhere)
        self._locate = locate
        self._statements = statements
        # Fixes that must not be applied alone (see `Linked`): what earlier passes blocked, and
        # what this pass found must be blocked.
        self.blocked: dict[object, str] = dict(blocked or {})
        self.newly_blocked: dict[object, str] = {}
        self._linked = Linked()
        self._brings: dict[cst.CSTNode, AddImport | ImportAlongside] = {}  # a new Name -> its import
        self._module_imports: dict[str, str] = {}  # local name -> module, for applied AddImports
        self._names_to_import: dict[cst.ImportFrom, list[str]] = {}  # original statement -> names to add
        self._left_imports: dict[cst.ImportFrom, cst.ImportFrom] = {}  # original -> the node left in the tree
        self._statements_after: list[cst.BaseStatement] = []

    # ----------------------------------------------------------------- the file

    @functools.cached_property
    def line_length(self) -> int:
        return max([79, *(len(line) for line in self._source_lines)])

    @functools.cached_property
    def _source_lines(self) -> list[str]:
        return self.source.splitlines()

    @property
    def ancestors(self) -> list[cst.CSTNode]:
        return self.cursor.ancestors[::-1]

    @property
    def guard(self) -> str | None:
        if not self.cursor.shims or self.cursor.leaving is None:
            return None
        return guard_of(
            [*self.cursor.ancestors, self.cursor.leaving],
            self._original_text,
            self.optional_internals,
            self.version_names,
        )

    @functools.cached_property
    def optional_internals(self) -> frozenset[str]:
        """The names of internal modules the file imports where it can fall back (`shims`)."""
        return optional_internals(self.source)

    @functools.cached_property
    def version_names(self) -> frozenset[str]:
        """The names the file binds to a value read from TensorFlow's version (`shims`)."""
        return version_names(self.source)

    @functools.cached_property
    def version_bindings(self) -> dict[str, cst.BaseExpression]:
        """The module-level names the file binds once from TensorFlow's version (`shims`)."""
        return version_bindings(self.source)

    def _original_text(self, node: cst.CSTNode) -> str:
        """The original source text of the block that starts at `node`'s first line: that line and
        the lines after it indented deeper (or blank), also where the plan left statements of the
        block out of the tree."""
        if self._locate is not None:
            first = self._locate(node, self.cursor.top_statement()).line
        else:
            first = self.node_lines(node)[1].line
        lines = self._source_lines[first - 1 :]
        indent = len(lines[0]) - len(lines[0].lstrip())
        block = [lines[0]]
        for line in lines[1:]:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            block.append(line)
        return "\n".join(block) + "\n"

    def node_lines(self, node: cst.CSTNode) -> tuple[list[str], Span]:
        assert self.module is not None
        if self._statements is not None:
            span = self._statements.span(node, self.cursor.top_statement())
            return [self._statements.line(n) for n in range(span.line, span.end_line + 1)], span
        span = node_spans(self.module, [node])[node]
        return self.module.code.splitlines()[span.line - 1 : span.end_line], span

    def source_line(self, node: cst.CSTNode) -> int:
        if self._locate is not None:
            return self._locate(node, self.cursor.top_statement()).line
        return self.node_lines(node)[1].line

    def line_around(self, node: cst.CSTNode) -> tuple[str, str]:
        lines, span = self.node_lines(node)
        return lines[0][: span.column - 1], lines[-1][span.end_column - 1 :]

    # ----------------------------------------------------------------- names

    def is_reference(self, node: cst.Name) -> bool:
        return self.scopes.is_reference(node)

    def binding(self, name: str) -> Binding | None:
        return self.scopes.scope.lookup(name)

    def qualified_name(self, node: cst.CSTNode) -> str | None:
        """None too for the dotted names of import statements (`import tensorflow.python.x`),
        which are module paths, not uses."""
        parts, head = dotted_parts(node), head_name(node)
        if not parts or head is None or not self.scopes.is_reference(head):
            return None
        qualified = self.scopes.qualified_name(parts)
        if (
            qualified is not None
            and self.scopes.reads_module_import_later(head.value)
            and rebound_at_module_level(self.source, head.value)
        ):
            return None  # a function reads the name when it runs: maybe bound otherwise by then
        return qualified

    def resolves_to_module_other_than_tensorflow(self, node: cst.CSTNode) -> bool:
        head = head_name(node)
        if head is None:
            return False
        binding = self.scopes.scope.lookup(head.value)
        return (
            binding is not None
            and binding.qualified_name is not None
            and not is_tensorflow(binding.qualified_name)
        )

    def spell(self, qualified_name: str, like: cst.CSTNode | None = None) -> cst.BaseExpression | None:
        scope = self.scopes.scope
        candidates: list[tuple[cst.Name | str, str]] = []
        head = head_name(like) if like is not None else None
        if head is not None:
            binding = scope.lookup(head.value)
            if binding is not None and binding.is_import:
                base: cst.Name | str = cst.Name(binding.renamed_to) if binding.renamed_to else head
                candidates.append((base, normalize(binding.spelled_name)))
            elif binding is not None and binding.module is not None:  # `keras = tf.keras`
                candidates.append((head, binding.moved_to or binding.module))
        others = sorted(  # not an import in a branch (`if TYPE_CHECKING:`): the new name may run without it
            (
                b
                for b in scope.visible_imports()
                if b.renamed_to is None and not imported_conditionally(self.source, b.name)
            ),
            key=lambda b: -len(b.spelled_name),
        )
        candidates.extend((b.name, normalize(b.spelled_name)) for b in others)
        candidates.extend(self._module_imports.items())
        for base, prefix in candidates:
            if qualified_name == prefix or qualified_name.startswith(prefix + "."):
                rest = qualified_name[len(prefix) + 1 :].split(".") if qualified_name != prefix else []
                return _attribute_chain(cst.Name(base) if isinstance(base, str) else base, rest)
        if is_tensorflow(qualified_name):
            local = self._free_name_for_tensorflow()
            if local is not None:
                name = cst.Name(local)
                self._brings[name] = AddImport(local, TENSORFLOW)
                rest = qualified_name[len(TENSORFLOW) + 1 :].split(".")
                return _attribute_chain(name, rest if qualified_name != TENSORFLOW else [])
        return None

    def import_alongside(self, name: cst.Name, new_name: str) -> cst.Name | None:
        scope = self.scopes.scope
        binding = scope.lookup(name.value)
        if binding is None or binding.qualified_name is None or binding.node is None:
            return None
        statement = (
            self.scopes.import_of_alias.get(binding.node)
            if isinstance(binding.node, cst.ImportAlias)
            else None
        )
        if statement is None:
            return None
        wanted = f"{binding.qualified_name.rsplit('.', 1)[0]}.{new_name}"
        existing = scope.lookup(new_name)
        if existing is not None:
            return cst.Name(new_name) if existing.qualified_name == wanted else None
        if scope.ever_bound(new_name) or re.search(rf"\b{new_name}\b", self.source):
            return None
        alongside = cst.Name(new_name)
        self._brings[alongside] = ImportAlongside(statement, new_name)
        return alongside

    # ----------------------------------------------------------------- reporting

    def blocked_reason(self, key: object) -> str | None:
        return self.blocked.get(key)

    def block(self, key: object, reason: str) -> None:
        if key not in self.blocked and key not in self.newly_blocked:
            self.newly_blocked[key] = reason

    def imported_elsewhere(self, name: str) -> str | None:
        return self._imported_elsewhere.get(name)

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        *,
        replacement: Replacement | None = None,
        fix: Fix | None = None,
        edits: Iterable[Edit] = (),
        evidence: str | None = None,
        note: bool = False,
        new_spelling: bool = True,
        removed_in: str | None = None,
        new_since: str | None = None,
    ) -> Replacement | None:
        rule = self.cursor.rule
        assert rule is not None, "report() outside a rule handler"
        assert new_spelling or replacement is None, "a fix writes a new spelling"
        if self.cursor.shims and not rule.runs_in_shims:
            return None
        declined = False
        if self._locate is not None and (self._suppressions or self._declined):
            span = self._locate(node, self.cursor.top_statement())
            if is_suppressed(span, rule.code, self._suppressions):
                return None
            declined = (rule.code, span.line, span.column) in self._declined
        if evidence is not None:
            message = message.replace(EVIDENCE, evidence)
        assert not (note and replacement is not None), "a note has no fix"
        if replacement is not None and fix is None:
            fix = rule.fix or Fix.SAFE
        if replacement is None:
            fix = None
        dropped = _dropped_comments(node, replacement) if fix is Fix.SAFE else ()
        if dropped:  # as ruff's fixes: one that deletes comments is unsafe
            fix = Fix.UNSAFE
            shown = ", ".join(f"`{comment}`" for comment in dropped)
            message = f"{message}\nThe fix would drop the comment{'s' if len(dropped) > 1 else ''} {shown}."
        versions = rule.versions if new_spelling else dataclasses.replace(rule.versions, new_since=None)
        if removed_in is not None:
            versions = dataclasses.replace(versions, old_removed=removed_in)
        if new_since is not None and new_spelling:
            versions = dataclasses.replace(versions, new_since=new_since)
        too_new = not self._target.allows(versions.new_since)  # the new spelling fails on the target
        applied = (
            (fix is Fix.SAFE or (fix is Fix.UNSAFE and self._unsafe_fixes)) and not declined and not too_new
        )
        # The first line says when the old spelling breaks and why the fix was not applied.
        when = (
            None
            if note
            else first_line_versions(
                versions, self._target, too_new=too_new, fixed=applied, fixable=fix is not None
            )
        )
        if when is not None:
            head, _, details = message.partition("\n")
            message = f"{head.rstrip('.')} ({when}).\n{details}"
        if too_new and not note:  # the details say what to do
            message = f"{message}\n{too_new_note(versions, self._target, fixable=fix is not None)}"
        elif fix is Fix.UNSAFE and not self._unsafe_fixes and isinstance(replacement, cst.CSTNode):
            rewrite = _ONE_LINE.sub(" ", code_for(replacement).strip())  # a finding is one line
            message = f"{message}\nUnsafe fix (apply with --unsafe-fixes): `{rewrite}`"
        self.reports.append(
            Report(
                rule,
                node,
                message,
                fix,
                applied,
                self.cursor.top_statement(),
                evidence,
                note,
                None if new_spelling and removed_in is None and new_since is None else versions,
            )
        )
        if not applied:
            return None
        carried: list[AnyEdit] = list(edits)
        if isinstance(replacement, cst.CSTNode):
            self._linked.migrated(node)
            carried += self._brought_by(replacement)
        for edit in carried:
            self._carry_out(edit)
        return replacement

    def _brought_by(self, replacement: cst.CSTNode) -> list[AddImport | ImportAlongside]:
        """The imports that the names `spell` and `import_alongside` made, inside `replacement`,
        need; each is handed out once (once carried out, it is in place for every later use)."""
        if not self._brings:
            return []
        found, stack = [], [replacement]
        while stack:
            node = stack.pop()
            if node in self._brings:
                found.append(self._brings.pop(node))
            stack.extend(node.children)
        return found

    def _carry_out(self, edit: AnyEdit) -> None:
        match edit:
            case AddStatementAfter(statement):
                self._statements_after.append(statement)
            case AddImport(local, module):
                self._module_imports[local] = module
            case ImportAlongside(statement, new_name):
                names = self._names_to_import.setdefault(statement, [])
                if new_name not in names:
                    names.append(new_name)
            case DropUse(name):
                binding = self.scopes.scope.lookup(name.value)
                if binding is not None and binding.is_import and self.scopes.is_reference(name):
                    binding.uses_dropped += 1
            case RenameBinding(alias, new_name):
                if (binding := self.scopes.alias_bindings.get(alias)) is not None:
                    binding.renamed_to = new_name
            case MoveBinding(alias, new_qualified_name):

                def move(binding: Binding) -> None:
                    binding.moved_to = new_qualified_name

                self.scopes.when_bound(alias, move)
            case TrackUses(alias):
                if self.scopes.scope.kind == "module":
                    self.scopes.when_bound(alias, functools.partial(self._block_if_imported, alias))
                self.scopes.when_bound(alias, self._linked.track)
            case _:
                assert_never(edit)

    def _block_if_imported(self, alias: BindingNode, binding: Binding) -> None:
        """A fix that changes what a module-level name binds is blocked where another file
        imports the name: its uses there would not follow."""
        where = self._imported_elsewhere.get(binding.name)
        if where is not None:
            self.block(
                alias, f"`{binding.name}` is imported by {where}, whose uses of it this file cannot see"
            )

    # ----------------------------------------------------------------- hooks of the pass

    def visit_module(self, node: cst.Module) -> None:
        self.module = node

    def leave_name(self, original: cst.Name, result):
        """Count a use of an imported name, and follow the import when a fix renamed the name."""
        if not self.scopes.is_reference(original):
            return result
        binding = self.scopes.scope.lookup(original.value)
        if binding is None or binding.stands_for is None:
            return result
        binding.uses += 1
        if binding.renamed_to and type(result) is cst.Name:
            self._linked.kept.add(original)  # the same object under its new name
            result = result.with_changes(value=binding.renamed_to)
        if self._linked.tracked:
            ancestors = self.cursor.ancestors
            self._linked.use(binding, original, ancestors[-1] if ancestors else None)
        return result

    def leave_import_from(self, original, result):
        if type(result) is cst.ImportFrom:
            self._left_imports[original] = result
        return result

    def leave_statement(self, original, result):
        """The statement, followed by those that applied fixes put after it."""
        if not self._statements_after or not isinstance(result, cst.SimpleStatementLine):
            return result
        extra, self._statements_after = self._statements_after, []
        return cst.FlattenSentinel([result, *import_edits.merge_from_imports(extra)])

    def finish(self, original, module: cst.Module) -> cst.Module:
        """After the pass: block the linked fixes left alone, then the import edits."""
        for key, reason in self._linked.blocked():
            self.block(key, reason)
        module = import_edits.add_imported_names(
            module,
            {
                self._left_imports[key]: names
                for key, names in self._names_to_import.items()
                if key in self._left_imports
            },
        )
        # new imports first, placed among the imports still there: an import the fixes leave
        # unused may be the only one, and its place is then theirs (not the top, above code)
        before = {id(statement) for statement in module.body}
        module = import_edits.add_imports(module, self._module_imports)
        if "__all__" not in self.source:  # a module may re-export what it imports
            added = [statement for statement in module.body if id(statement) not in before]
            module = import_edits.remove_imported_names(module, self._unused_imports(), added)
        return module

    def _unused_imports(self) -> dict[cst.ImportFrom, set[str]]:
        """The `from ... import` names whose every use an applied fix rewrote away, by statement;
        not a name a string literal holds (a doctest example's use, `getattr(module, "name")`)."""
        targets: dict[cst.ImportFrom, set[str]] = {}
        for alias, statement in self.scopes.import_of_alias.items():
            binding = self.scopes.alias_bindings[alias]
            if not binding.uses or binding.uses != binding.uses_dropped or quoted(self.source, binding.name):
                continue
            if binding.name in self._imported_elsewhere:  # another file imports it from here
                continue
            left = self._left_imports.get(statement)
            if left is not None:
                targets.setdefault(left, set()).add(binding.name)
        return targets

    def _free_name_for_tensorflow(self) -> str | None:
        for local, module in self._module_imports.items():
            if module == TENSORFLOW:
                return local
        for local in ("tf", "tensorflow"):
            if not self.scopes.scope.ever_bound(local) and not re.search(rf"\b{local}\b", self.source):
                return local
        return None


def _dropped_comments(node: cst.CSTNode, replacement: Replacement | None) -> tuple[str, ...]:
    """The comments inside `node` that its `replacement` (a new node) no longer holds, each once,
    but for those of an argument the replacement leaves out with its value (`loss_scale="dynamic",
    # dynamic`): a fix that would drop the others is unsafe, as ruff's are. A removal drops the
    comments of what it removes (an imported name's), which are about it: not counted."""
    if not isinstance(replacement, cst.CSTNode):
        return ()
    comments = list(_comments(node))
    if not comments:  # most nodes: the replacement need not be walked
        return ()
    kept = collections.Counter(comment for comment, _ in _comments(replacement))
    missing = []
    for comment, argument in comments:
        if kept[comment]:
            kept[comment] -= 1
        else:
            missing.append((comment, argument))
    if not missing:
        return ()
    written = code_for(replacement)
    return tuple(
        dict.fromkeys(
            comment
            for comment, argument in missing
            if argument is None or code_for(argument.value) in written
        )
    )


def _comments(node: cst.CSTNode) -> Iterator[tuple[str, cst.Arg | None]]:
    """Each comment inside `node`, in the order of the source, with the argument it is in."""
    stack: list[tuple[cst.CSTNode, cst.Arg | None]] = [(node, None)]
    while stack:
        current, argument = stack.pop()
        if type(current) is cst.Comment:
            yield current.value, argument
        inner = current if isinstance(current, cst.Arg) else argument
        stack.extend((child, inner) for child in reversed(current.children))


def _attribute_chain(base: cst.Name, rest: list[str]) -> cst.BaseExpression:
    expr: cst.BaseExpression = base
    for part in rest:
        expr = cst.Attribute(value=expr, attr=cst.Name(part))
    return expr
