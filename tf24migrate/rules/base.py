"""What a rule is: one code, one name and one docstring (its documentation).

A rule declares what must occur in a file for it to possibly fire (`requires` and `triggers`, see
`tf24migrate.catalogue.prefilter`): the engine parses only files holding them, and visits only the
statements on lines holding a trigger (or using a name bound on such a line), so every line a rule
must look at has to hold one. It handles the node types it cares about with
`leave_<NodeType>(ctx, original, updated)` methods, as a LibCST transformer would, where `ctx` is
the `RuleContext` (`tf24migrate.rules.context`). Rules never read files or print: they call `ctx.report(...)`.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from tf24migrate.model.findings import Finding, Fix, Severity, Span
from tf24migrate.model.target import Target, severity_for
from tf24migrate.rules.needles import IMPORTS_PUBLIC_TENSORFLOW

if TYPE_CHECKING:
    from tf24migrate.rules.needles import Needle

# `Rule.requires` of rules that only match names of TensorFlow's public API (`tensorflow.X`), which
# only an import of that API binds: TensorFlow's own sources, which import its internals, are not parsed.
IMPORTS_TENSORFLOW = (IMPORTS_PUBLIC_TENSORFLOW,)
# `Rule.requires` of rules whose evidence needs no name of the public API (a `model.output`, a
# layer's `.dtype_policy`), only a file that mentions TensorFlow.
MENTIONS_TENSORFLOW = ("tensorflow",)


class Rule:
    """Base class of every rule. Subclasses set the class attributes and the docstring."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    fix: ClassVar[Fix | None] = None  # the rule's usual fix kind, as listed in the catalogue
    severity: ClassVar[Severity] = Severity.WARNING
    default: ClassVar[bool] = True
    # One of these must occur in a file, and on every line the rule must see (`needles.Needle`s:
    # literal strings or `Pattern`s); after changing them, run `python -m tf24migrate.catalogue.prefilter`.
    triggers: ClassVar[tuple[Needle, ...]] = ()
    # Needles that must all occur in a file for the rule to run at all: a rule that matches only
    # names reached through TensorFlow imports requires "tensorflow" (see IMPORTS_TENSORFLOW).
    requires: ClassVar[tuple[Needle, ...]] = ()
    # The triggers on whose lines a bound name must be followed to the statements using it
    # (`pruning`), for a rule that follows a value or an import alias through names; None: all of
    # `triggers`. A rule that only rewrites or reports what its trigger names (a method, a keyword
    # argument) has (), so `ds = s.experimental_make_numpy_dataset(x)` does not make every line
    # using `ds` parsed.
    follows: ClassVar[tuple[Needle, ...] | None] = None
    # Whether the rule also runs in code that guards the old API (try/except, hasattr, version).
    runs_in_shims: ClassVar[bool] = False
    # TensorFlow versions ("X.Y"), checked in the released wheels; the docstring says where. A fix
    # is applied only when the target is at least `new_since` (`tf24migrate.model.target`); an old
    # spelling that stops working (`old_removed`) within the supported versions is an error.
    new_since: ClassVar[str | None] = None  # the first release with the spelling the fix writes
    old_removed: ClassVar[str | None] = None  # the first release where the old spelling fails; None: works
    changed_in: ClassVar[str | None] = None  # the release whose change of behaviour the rule reports
    # A rule that reads the text (comments, docstrings) rather than the tree: the engine calls its
    # `scan_text(source, *, path, unsafe_fixes, declined, suppressed, target)` -> (source, findings)
    # before the other rules, and its fixes must keep every line where it is.
    reads_text: ClassVar[bool] = False

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
    ) -> Finding:
        """A finding of this rule at `span`: the one place findings of rules are made, so each
        carries the rule's code, name, versions and its severity for `target`."""
        return Finding(
            code=self.code,
            name=self.name,
            line=span.line,
            column=span.column,
            end_line=span.end_line,
            end_column=span.end_column,
            message=message,
            severity=severity_for(self, target),
            fix=fix,
            applied=applied,
            path=path,
            new_since=self.new_since,
            old_removed=self.old_removed,
            changed_in=self.changed_in,
        )

    def handlers(self) -> dict[str, object]:
        """`{"Call": bound leave_Call, ...}` for the node types this rule handles."""
        return {attr[len("leave_") :]: getattr(self, attr) for attr in _handler_names(type(self))}

    def __repr__(self) -> str:
        return f"<{self.code} {self.name}>"


@cache
def _handler_names(rule_class: type[Rule]) -> tuple[str, ...]:
    return tuple(
        attr for attr in dir(rule_class) if attr.startswith("leave_") and callable(getattr(rule_class, attr))
    )


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
