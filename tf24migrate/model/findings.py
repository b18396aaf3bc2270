"""The values the engine hands out: fix kinds, severities, findings and per-file results."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    """Where something is in a source."""

    line: int  # 1-based
    column: int  # 1-based, in characters
    end_line: int
    end_column: int


class Fix(str, enum.Enum):
    """How safe a rule's rewrite is."""

    SAFE = "safe"
    UNSAFE = "unsafe"


class Severity(str, enum.Enum):
    """How bad it is to leave a finding as it is."""

    ERROR = "error"  # the code fails on TF >= 2.4
    WARNING = "warning"  # behaviour may change, or the API is deprecated
    INFO = "info"  # a note


@dataclass(frozen=True)
class Finding:
    """One rule hit: where, what, and whether its fix was applied.

    Lines are 1-based; columns are 1-based and count characters, as in ruff's output.
    """

    code: str
    name: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    severity: Severity
    fix: Fix | None
    applied: bool
    path: str | None = None
    cell: int | None = None
    # The rule's TensorFlow versions (see `tf24migrate.catalogue.selection.Rule`): where the new spelling first
    # exists, where the old one stops working, where the reported behaviour changed.
    new_since: str | None = None
    old_removed: str | None = None
    changed_in: str | None = None
    # Why a report-only rule believes the code at this place is affected (`x` is bound to
    # `tf.keras.Input(...)`); the message quotes it where it says `{evidence}`.
    evidence: str | None = None
    # Why, and the version story, after the short `message` (what and where): JSON's `details`,
    # SARIF's message markdown, a second line of the text output once per code and text.
    details: str | None = None

    @property
    def location(self) -> str:
        """`path:line:col`, or `path:cell N:line:col` inside a notebook."""
        path = self.path or "<string>"
        if self.cell is not None:
            return f"{path}:cell {self.cell}:{self.line}:{self.column}"
        return f"{path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class MigrationResult:
    """What `migrate_source` returns: the new source and every finding in it."""

    source: str
    code: str
    findings: tuple[Finding, ...] = ()
    # The (first, last) source lines the migration regenerated; all others must be kept as they
    # are (`outside_edits`). None: not said (a notebook's JSON), nothing is checked.
    edited: tuple[tuple[int, int], ...] | None = field(default=None, compare=False, repr=False)

    @property
    def changed(self) -> bool:
        return self.code != self.source


class Status(str, enum.Enum):
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    FAILED = "failed"


@dataclass(frozen=True)
class FileResult:
    """What `migrate_paths` yields for one file."""

    path: str
    status: Status
    source: str | None = None
    code: str | None = None
    findings: tuple[Finding, ...] = ()
    error: str | None = None
    written: bool = False
    # A changed file's encoding and the digest of the bytes read: it is written back in that
    # encoding, and only if it still holds those bytes.
    encoding: str | None = field(default=None, compare=False)
    digest: str | None = field(default=None, compare=False)
    # False for a result that may not follow from the file's content alone (an internal error,
    # perhaps a recursion limit): the result cache does not keep it.
    cacheable: bool = field(default=True, compare=False)
    # A changed Python file's module-level names its new code binds otherwise (`run.importers`).
    rebound: tuple[str, ...] = field(default=(), compare=False)

    @property
    def changed(self) -> bool:
        return self.status is Status.CHANGED
