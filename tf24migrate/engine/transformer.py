"""The one pass over a module: a LibCST transformer that is traversal only.

`walk` drives it (not descending into its `inert` node types). Entering a node, it skips a
statement that the pruning plan marks uninteresting, and tells the `ScopeTracker` and the
`Cursor`; leaving a node, it runs each active rule's `leave_<NodeType>` handler with the
`FileContext` as `ctx` (`tf24migrate.rules.context`), then the context's own hooks (uses of
names, statements after, the import edits at the end), the scopes' and the layout of changed
calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, cast

import libcst as cst

from tf24migrate.engine import layout
from tf24migrate.engine.ast_bindings import Bindings
from tf24migrate.engine.context import FileContext
from tf24migrate.engine.pruning import StatementPlan
from tf24migrate.engine.scopes import ScopeTracker
from tf24migrate.engine.shims import is_shim, taken_on_tf24
from tf24migrate.engine.walk import walk
from tf24migrate.model.errors import RuleError
from tf24migrate.rules.base import Rule

if TYPE_CHECKING:
    from tf24migrate.rules.base import Handler

_COMPOUND_TYPES = frozenset(
    {cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try, cst.TryStar, cst.Match}
)
_STATEMENT_TYPES = _COMPOUND_TYPES | {cst.SimpleStatementLine, cst.SimpleStatementSuite}
_SHIM_CANDIDATES = frozenset({cst.Try, cst.If, cst.IfExp, cst.BooleanOperation})


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


class MigrationTransformer(cst.CSTTransformer):
    """Runs `rules` over one module, reporting through `ctx`. See the module docstring."""

    def __init__(self, rules: Sequence[Rule], ctx: FileContext, plan: StatementPlan | None = None) -> None:
        super().__init__()
        self.ctx = ctx
        self.plan = plan
        self._scopes = ctx.scopes
        self._cursor = ctx.cursor
        self._handlers, self.inert = _dispatch(tuple(rules))
        self._pruned: set[cst.CSTNode] = set()
        self._fallbacks: set[cst.CSTNode] = set()  # the fallbacks of shims, shims once visited

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        if self.plan is not None and kind in _STATEMENT_TYPES and self._prune(node):
            return False
        if type(node) is cst.Module:  # `type(...) is`: LibCST's nodes are ABCs, slow in isinstance
            self.ctx.visit_module(node)
        visit = ScopeTracker.VISIT.get(kind)
        if visit is not None:
            visit(self._scopes, node)
        if kind in _SHIM_CANDIDATES and is_shim(node, self.ctx.optional_internals, self.ctx.version_names):
            if kind is cst.BooleanOperation:  # `getattr(x, "new", None) or x.old`: only `x.old`
                self._fallbacks.add(cast(cst.BooleanOperation, node).right)
            elif (
                kind is not cst.Try
                and (
                    taken := taken_on_tf24(
                        (branching := cast(cst.If | cst.IfExp, node)).test, self.ctx.version_bindings
                    )
                )
                is not None
            ):
                # the branch TF 2.4 takes is checked, the other left alone (of a statement or an expression)
                dead = branching.orelse if taken else branching.body
                if dead is not None:
                    self._fallbacks.add(dead)
            else:
                self._cursor.shims.add(node)
        if self._fallbacks and node in self._fallbacks:
            self._fallbacks.discard(node)
            self._cursor.shims.add(node)
        self._cursor.ancestors.append(node)
        return True

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        kind = type(original)
        if self._pruned and original in self._pruned:
            self._pruned.discard(original)
            return updated
        cursor = self._cursor
        cursor.ancestors.pop()
        cursor.leaving = original
        result = updated
        for rule, handler in self._handlers.get(kind, ()):
            cursor.rule = rule
            try:
                result = handler(self.ctx, original, result)
            except Exception as error:
                raise RuleError([rule.code], f"failed ({type(error).__name__}: {error})") from error
            cursor.rule = None
            if type(result) is not kind:
                break
        hook = _CONTEXT_HOOKS.get(kind)
        if hook is not None:
            result = hook(self.ctx, original, result)
        leave = ScopeTracker.LEAVE.get(kind)
        if leave is not None:
            leave(self._scopes, original)
        if type(original) is cst.Call:
            result = layout.lay_out_call(self.ctx, original, result)
        if cursor.shims and original in cursor.shims:
            cursor.shims.discard(original)
        return result

    def _prune(self, node: cst.CSTNode) -> bool:
        """Skip a statement the plan marks uninteresting, binding the names its ast node binds."""
        assert self.plan is not None
        if type(node) in _COMPOUND_TYPES:
            skipped = self.plan.take_compound(cast(cst.BaseCompoundStatement, node))
            skipped_binds: Iterable[Bindings] | None = [skipped] if skipped is not None else None
        else:
            body = cast(cst.SimpleStatementLine | cst.SimpleStatementSuite, node).body
            only_name = (
                body[0].value.value
                if len(body) == 1 and type(body[0]) is cst.Expr and type(body[0].value) is cst.Name
                else None
            )
            skipped_binds = self.plan.take_simple(len(body), only_name)
            if type(node) is cst.SimpleStatementSuite:
                return False  # one line of a statement being visited: never skipped alone
        if skipped_binds is None:
            return False
        for binds in skipped_binds:
            self._scopes.bind_skipped(binds)
        self._pruned.add(node)
        return True


def run_pass(
    module: cst.Module, rules: Sequence[Rule], ctx: FileContext, plan: StatementPlan | None
) -> cst.Module:
    """`module` with `rules` applied; what they reported is in `ctx.reports`."""
    transformer = MigrationTransformer(rules, ctx, plan)
    return walk(module, transformer, transformer.inert)


# The context's hooks, by node type: after the rules' handlers, before the scopes'.
_CONTEXT_HOOKS: dict[type, Callable] = {
    cst.Name: FileContext.leave_name,
    cst.ImportFrom: FileContext.leave_import_from,
    cst.Module: FileContext.finish,
    **dict.fromkeys(_STATEMENT_TYPES - {cst.SimpleStatementSuite}, FileContext.leave_statement),
}


_DISPATCH: dict[tuple[Rule, ...], tuple[dict[type, list[tuple[Rule, Handler]]], frozenset[type]]] = {}


def _dispatch(rules: tuple[Rule, ...]) -> tuple[dict[type, list[tuple[Rule, Handler]]], frozenset[type]]:
    """The handlers of `rules` by node type, and the inert node types none of them handles."""
    if rules not in _DISPATCH:
        handlers: dict[type, list[tuple[Rule, Handler]]] = {}
        for rule in rules:
            for node_type, handler in rule.handlers().items():
                handlers.setdefault(getattr(cst, node_type), []).append((rule, handler))
        _DISPATCH[rules] = (handlers, frozenset(_INERT - handlers.keys()))
    return _DISPATCH[rules]
