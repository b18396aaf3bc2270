"""What a rule is: one code, one name and one docstring (its documentation).

A rule declares what must occur in a file for it to possibly fire (`requires` and `triggers`, see
`tf24migrate.catalogue.prefilter`): the engine parses only files holding them, and visits only the
statements on lines holding a trigger (or using a name bound on such a line); tests demand the
same output without that plan (`engine.pruning`) on every fixture and the public corpora. It
handles the node types it cares about with `leave_<NodeType>(ctx, original, updated)` methods, as
a LibCST transformer would, where `ctx` is the `RuleContext` (`tf24migrate.rules.context`). Rules
never read files or print: they call `ctx.report(...)`.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from tf24migrate.model.errors import RuleDefinitionError
from tf24migrate.model.findings import Finding, Fix, Severity, Span
from tf24migrate.model.target import Target, Versions, severity_for, versions_line
from tf24migrate.rules.needles import IMPORTS_PUBLIC_TENSORFLOW

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from tf24migrate.rules.context import RuleContext, TextContext
    from tf24migrate.rules.needles import Needle

    Handler = Callable[[RuleContext, Any, Any], Any]
    """A bound `leave_<Node>(ctx, original, updated)`: returns what replaces `updated`."""

# `Rule.requires` of rules that only match names of TensorFlow's public API (`tensorflow.X`), which
# only an import of that API binds: TensorFlow's own sources, which import its internals, are not parsed.
IMPORTS_TENSORFLOW = (IMPORTS_PUBLIC_TENSORFLOW,)
# `Rule.requires` of rules whose evidence needs no name of the public API (a `model.output`, a
# layer's `.dtype_policy`), only a file that mentions TensorFlow.
MENTIONS_TENSORFLOW = ("tensorflow",)


class Rule:
    """Base class of every rule. Subclasses set the class attributes and the docstring."""

    code: str = ""
    name: str = ""
    fix: Fix | None = None  # the rule's usual fix kind, as listed in the catalogue
    severity: Severity = Severity.WARNING
    default: bool = True
    # One of these must occur in a file, and on every line the rule must see (or a name bound on
    # such a line: `follows`); `needles.Needle`s, literal strings or `Pattern`s. After changing
    # them, run `python -m tf24migrate.dev regen`.
    triggers: tuple[Needle, ...] = ()
    # Needles that must all occur in a file for the rule to run at all: a rule that matches only
    # names reached through TensorFlow imports requires "tensorflow" (see IMPORTS_TENSORFLOW).
    requires: tuple[Needle, ...] = ()
    # The needles on whose lines a bound name is followed to the statements using it (`pruning`),
    # for a rule that follows a value or an import alias through names; None: all of `triggers`.
    # A narrower tuple is only faster: a rule that rewrites or reports only what its trigger names
    # (a method, a keyword argument) has (), derived by its kind (`RenameMethod`, `RenameKeyword`).
    # Tests run every fixture and the public corpora with and without the plan and demand the same
    # output, so a tuple narrower than the rule fails there.
    follows: ClassVar[tuple[Needle, ...] | None] = None
    # Whether the rule also runs in code that guards the old API (try/except, hasattr, version).
    runs_in_shims: ClassVar[bool] = False
    # Whether the rule matches TensorFlow's internal modules (`tensorflow.python...`): the prefilter
    # leaves it out in TensorFlow's own sources, told by their path (`catalogue.own_sources`), and
    # keeps it in any other file, also one that imports only internals, so its `requires` must not
    # ask for an import of the public API. A `DataRule` kind may set it per row (`ReportUse`).
    reads_internals: bool = False
    # TensorFlow versions ("X.Y"), checked in the released wheels; the docstring says where. A fix
    # is applied only when the target is at least `new_since` (`tf24migrate.model.target`); an old
    # spelling that stops working (`old_removed`) within the supported versions is an error.
    new_since: str | None = None  # the first release with the spelling the fix writes
    old_removed: str | None = None  # the first release where the old spelling fails; None: works
    changed_in: str | None = None  # the release whose change of behaviour the rule reports
    # Set when the class is defined: whether it overrides `scan_text` / `scan_markdown`.
    reads_text: ClassVar[bool] = False
    reads_markdown: ClassVar[bool] = False
    # The identifiers the rule reports in C and C++ sources (`tf24migrate.sources.c_sources`),
    # each with its message; those sources are only scanned, never rewritten.
    c_identifiers: ClassVar[Mapping[str, str]] = {}

    def scan_text(self, ctx: TextContext, source: str) -> str:
        """A rule that reads the text (comments, docstrings) rather than the tree overrides this:
        the engine calls it before the tree rules, with the whole source. It reports through
        `ctx.report(span, message, replacement=...)`, which says whether a fix is applied, and
        returns the source with the applied fixes, which must keep every line where it is."""
        return source

    def scan_markdown(self, ctx: TextContext, text: str) -> str:
        """A rule that reads prose overrides this to read a notebook's Markdown cells too: as
        `scan_text`, over one cell's text (lines counted from 1)."""
        return text

    @property
    def versions(self) -> Versions:
        """`new_since`, `old_removed` and `changed_in` as one value, as `tf24migrate.model.target`
        judges them."""
        return Versions(self.new_since, self.old_removed, self.changed_in)

    @property
    def doc(self) -> str:
        return inspect.getdoc(self) or ""

    @property
    def summary(self) -> str:
        return self.doc.split("\n\n")[0].replace("\n", " ")

    def finding(
        self,
        span: Span,
        message: str,
        *,
        target: Target,
        fix: Fix | None = None,
        applied: bool = False,
        path: str | None = None,
        evidence: str | None = None,
        note: bool = False,
        versions: Versions | None = None,
    ) -> Finding:
        """A finding of this rule at `span`: the one place findings of rules are made, so each
        carries the rule's code, name, versions and its severity for `target`. The first line of
        `message` is what and where (ruff's short message); the lines after it (the why), then
        the rule's versions (when it has any), are the finding's `details`. A `note` is a note
        whatever the rule's severity (`RuleContext.report`). `versions`: the finding's own, when
        they are not the rule's (`RuleContext.report`'s `new_spelling`)."""
        versions = self.versions if versions is None else versions
        message, _, why = message.partition("\n")
        details = [part.strip() for part in why.split("\n") if part.strip()]
        if versions.new_since or versions.old_removed or versions.changed_in:  # a deprecation's too
            details.append(f"TensorFlow versions: {versions_line(versions)}")
        return Finding(
            code=self.code,
            name=self.name,
            line=span.line,
            column=span.column,
            end_line=span.end_line,
            end_column=span.end_column,
            message=message,
            severity=Severity.INFO
            if note
            else severity_for(versions, target, severity=self.severity, fixable=self.fix is not None),
            fix=fix,
            applied=applied,
            path=path,
            new_since=versions.new_since,
            old_removed=versions.old_removed,
            changed_in=versions.changed_in,
            evidence=evidence,
            details=" ".join(details) or None,
        )

    # The names of the node types the class handles (`leave_<Node>` methods), set when it is defined.
    handled: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Check the handlers of a rule class as it is defined: every `leave_<Node>` names a LibCST
        node class, and no `visit_<Node>` is declared (the engine never calls one)."""
        super().__init_subclass__(**kwargs)
        cls.handled = _handled_nodes(cls)
        cls.reads_text = cls.scan_text is not Rule.scan_text
        cls.reads_markdown = cls.scan_markdown is not Rule.scan_markdown

    def handlers(self) -> dict[str, Handler]:
        """`{"Call": bound leave_Call, ...}` for the node types this rule handles."""
        return {node: getattr(self, f"leave_{node}") for node in self.handled}

    def __repr__(self) -> str:
        return f"<{self.code} {self.name}>"


@cache
def _node_names() -> tuple[str, ...]:
    """The names of LibCST's node classes (imported here: defining a rule class loads LibCST)."""
    import libcst as cst

    # `CSTNode in __mro__`, not `issubclass`: `CSTNode` is an ABC, and the ABC check of each of the
    # module's other classes walks all of its subclasses (8 ms of a cold run's start, not 0.2).
    return tuple(
        sorted(
            name
            for name, value in vars(cst).items()
            if isinstance(value, type) and cst.CSTNode in value.__mro__
        )
    )


def _handled_nodes(rule_class: type) -> tuple[str, ...]:
    """The `X` of the `leave_X` methods of `rule_class`; `RuleDefinitionError` for a `visit_X`
    method or an `X` that is not a LibCST node class."""
    where = f"{rule_class.__module__}.{rule_class.__qualname__}"
    handled = []
    for attr in dir(rule_class):
        if attr.startswith("visit_") and callable(getattr(rule_class, attr)):
            raise RuleDefinitionError(
                f"{where}.{attr}: rules are never visited; a handler is "
                f"`leave_<Node>(self, ctx, original, updated)`, e.g. `leave_{attr[len('visit_') :]}`"
            )
        if not attr.startswith("leave_") or not callable(getattr(rule_class, attr)):
            continue
        node = attr[len("leave_") :]
        if node not in _node_names():  # LibCST is loaded by the first class with a handler
            import difflib

            close = difflib.get_close_matches(node, _node_names(), n=3)
            hint = f" (did you mean {' or '.join(f'`leave_{name}`' for name in close)}?)" if close else ""
            raise RuleDefinitionError(
                f"{where}.{attr}: `{node}` is not a LibCST node class{hint}; a handler is "
                "`leave_<Node>(self, ctx, original, updated)` where <Node> is a class of `libcst` "
                "(`leave_Call`, `leave_Attribute`, ...)"
            )
        handled.append(node)
    return tuple(handled)


class DataRule(Rule):
    """A rule defined by data (a table row) rather than by a class of its own.

    Subclasses implement the rewrite once; each instance carries its own code, name, doc and
    triggers, so rename-like rules stay rows in a table.
    """

    def __init__(
        self,
        *,
        code: str,
        name: str,
        doc: str,
        severity: Severity,
        fix: Fix | None = Fix.SAFE,
        default: bool = True,
        triggers: tuple[Needle, ...],
        requires: tuple[Needle, ...] = (),
        new_since: str | None = None,
        old_removed: str | None = None,
        changed_in: str | None = None,
    ) -> None:
        self.code = code
        self.name = name
        self._doc = inspect.cleandoc(doc)
        self.severity = severity
        self.fix = fix
        self.default = default
        self.triggers = triggers
        self.requires = requires
        self.new_since, self.old_removed, self.changed_in = new_since, old_removed, changed_in

    @property
    def doc(self) -> str:
        return self._doc
