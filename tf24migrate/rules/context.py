"""`RuleContext`: everything a rule's handler may ask of the file it runs in, on one page.

A handler is `leave_<NodeType>(self, ctx: RuleContext, original, updated)`, as in a LibCST
transformer: `original` is the node as parsed, `updated` the node with the fixes of its children
applied, and it returns what replaces `updated` (itself, when nothing changes). It learns what
names mean through `ctx`, and reports through `ctx.report`, which also decides whether the fix is
applied (safety, `--unsafe-fixes`, suppression comments, shims, the target version): a handler
writes `return ctx.report(original, message, replacement=new) or updated`.

Nodes passed to `ctx` are original nodes (`original`, or nodes inside it), never updated ones.
The engine's implementation is `tf24migrate.engine.context.FileContext`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:  # the context is declared without loading LibCST (the text rules need none)
    import libcst as cst

    from tf24migrate.model.findings import Fix, Span
    from tf24migrate.rules.edits import Edit
    from tf24migrate.rules.names import Binding

EVIDENCE = "{evidence}"
"""Where a message quotes the evidence passed with it (`RuleContext.report`)."""


def sentence(text: str) -> str:
    """`text` (evidence, a reason: "`x` is bound on line 3 to ...") to start a sentence with."""
    return f"{text[:1].upper()}{text[1:]}"


Replacement = TypeVar("Replacement", bound="cst.CSTNode | cst.RemovalSentinel")


class RuleContext(Protocol):
    # ------------------------------------------------------------------ the file
    source: str
    """The whole source text of the file (or of the doctest example) being migrated."""

    @property
    def line_length(self) -> int:
        """The line length of the file's own code: its longest line, and at least 79."""

    @property
    def ancestors(self) -> list[cst.CSTNode]:
        """The original nodes around the node being left, innermost (its parent) first."""

    @property
    def guard(self) -> str | None:
        """How the node being left is guarded (`engine.shims.guard_of`): "fallback" in the body
        of a `try` whose handler catches ImportError or AttributeError and falls back to
        something, "version" behind an `if` testing hasattr or TensorFlow's version (where the
        test reads TensorFlow's version directly, only in the branch TF 2.4.0 does not take) and
        in the fallback of `getattr(x, "new", None) or x.old`, "shim" elsewhere in such code,
        None outside it. Only a rule that `runs_in_shims` sees the node
        of a shim at all."""

    def node_lines(self, node: cst.CSTNode) -> tuple[list[str], Span]:
        """The whole source lines `node` is on, and where it is."""

    def line_around(self, node: cst.CSTNode) -> tuple[str, str]:
        """The text of the source line before `node` starts, and after it ends."""

    def source_line(self, node: cst.CSTNode) -> int:
        """The line of `ctx.source` that `node` starts on. `node_lines` counts the lines of the
        text LibCST parsed, which the statement plan can shorten (statements left out); compare
        with what `ast` says of `ctx.source` through this one. `node` is of the top-level
        statement being left (KeyError for another's)."""

    # ------------------------------------------------------------------ names
    def is_reference(self, node: cst.Name) -> bool:
        """Whether a `Name` is an expression (not an attribute, a keyword or a definition's name)."""

    def binding(self, name: str) -> Binding | None:
        """What `name` is bound to where the node being left is, if anything."""

    def qualified_name(self, node: cst.CSTNode) -> str | None:
        """The TensorFlow-normalised qualified name of a dotted expression reached through an
        import (`tf.compat.v2.distribute.X` -> `tensorflow.distribute.X`), else None: also in a
        function reading an import that the module binds otherwise too (`LSTM = wrap(LSTM)`,
        below it), which the function may meet when it runs."""

    def resolves_to_module_other_than_tensorflow(self, node: cst.CSTNode) -> bool:
        """Whether an expression is rooted in an import of something that is not TensorFlow."""

    def spell(self, qualified_name: str, like: cst.CSTNode | None = None) -> cst.BaseExpression | None:
        """An expression naming `qualified_name` the way this file names TensorFlow things: through
        the import `like` is reached by (keeping the user's alias), else another visible import
        that covers it, else a new `import tensorflow as tf`, added only if a replacement holding
        the expression is applied. None when no spelling is possible."""

    def import_alongside(self, name: cst.Name, new_name: str) -> cst.Name | None:
        """`new_name` as a bare name, added to the `from ... import` statement that bound `name`
        when a replacement holding it is applied. None when `name` was not bound by such a
        statement, or `new_name` is bound to something else."""

    # ------------------------------------------------------------------ reporting
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
        """Report a finding at `node`. With a `replacement`, the finding is fixable (`fix`, default
        the rule's own kind); returns `replacement` when the fix is applied, else None. `edits`
        (`tf24migrate.rules.edits`) are carried out only with the fix. `evidence` says why the
        rule believes the code is affected: the finding carries it (`Finding.evidence`), and
        `message` quotes it where it says `{evidence}`. With `note`, the finding is a note
        whatever the rule's severity (the code already copes: a guarded import's fallback), and
        has no fix. Without `new_spelling`, nothing replaces what the finding names (a name gone
        for good, of a rule whose other findings have a new spelling): its versions say so.
        `removed_in`: the release where this finding's code breaks, when not the rule's
        `old_removed` (a policy the code reads may already be the stable one on TF 2.4);
        `new_since`: the first release with the spelling this finding's fix writes, when not the
        rule's (a moved name whose new home TF 2.3 already has)."""

    def blocked_reason(self, key: object) -> str | None:
        """Why the fix keyed by `key` (an original node, or a rule's own key) must not be applied
        in this file, as an earlier pass found; None when it may be."""

    def block(self, key: object, reason: str) -> None:
        """Make the fix keyed by `key` not applied: the engine runs the rules again, and
        `blocked_reason(key)` says why."""

    def imported_elsewhere(self, name: str) -> str | None:
        """Where another file imports the module-level `name` from this one (`` `train.py` line
        3 ``), as the command found (`run.importers`); None when no file is known to. A fix must
        not rename such a name: the other file's import would fail."""


class TextContext(Protocol):
    """What a rule that reads text (`Rule.scan_text`, `Rule.scan_markdown`) reports through: the
    engine's `tf24migrate.engine.text_reports.TextReports` for one rule over one text."""

    def report(self, span: Span, message: str, *, replacement: str | None = None) -> bool:
        """Report a finding at `span` (in the lines of the text the rule was given). With
        `replacement` (the new text of the span) the finding is fixable, of the rule's fix kind;
        returns whether the fix is applied, which is decided here (suppression comments, declined
        fixes, `--unsafe-fixes`, the target version): the rule then writes `replacement` there."""
