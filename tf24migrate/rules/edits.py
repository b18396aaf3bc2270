"""The edits a fix makes besides replacing its node, as typed values.

A rule passes them with the report they belong to (`ctx.report(node, message, replacement=...,
edits=[...])`): they are carried out only if that report's fix is applied, and never otherwise.
The engine carries them out during the pass (a statement after the current one, a binding that
changes) or after it (imports: `tf24migrate.engine.import_edits`).

Two more edits are never written by a rule: the names `ctx.spell` and `ctx.import_alongside`
return bring their own import (`AddImport`, `ImportAlongside`), added when a replacement holding
such a name is applied.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst


@dataclass(frozen=True)
class AddStatementAfter:
    """Put `statement` after the statement holding the reported node."""

    statement: cst.BaseStatement


@dataclass(frozen=True)
class DropUse:
    """This use of an imported name goes away with the fix. An import whose every use went away
    this way is removed (its uses all reach the new API now)."""

    name: cst.Name


@dataclass(frozen=True)
class RenameBinding:
    """The imported name `alias` binds is now `new_name`: later references to it follow."""

    alias: cst.ImportAlias
    new_name: str


BindingNode = cst.ImportAlias | cst.Assign
"""What binds a module's name: an import alias, or an assignment `mp = tf.a.b` (a module alias)."""


@dataclass(frozen=True)
class MoveBinding:
    """The import alias or module assignment `alias` now binds `new_qualified_name`. References
    through it still resolve to the old name (so rules match them), and `ctx.spell` spells new
    names through it."""

    alias: BindingNode
    new_qualified_name: str


@dataclass(frozen=True)
class TrackUses:
    """The fix changes what the name `alias` (an import alias or a module assignment) binds, so
    every use of the name must be migrated by an applied fix too; if one is not, this fix is
    blocked (`ctx.blocked_reason(alias)`) and the rules run again without it
    (`tf24migrate.engine.linked`)."""

    alias: BindingNode


@dataclass(frozen=True)
class AddImport:
    """`import <module> as <local>` at the top of the module (made by `ctx.spell`)."""

    local: str
    module: str


@dataclass(frozen=True)
class ImportAlongside:
    """`new_name` added to the `from ... import` statement `statement` (made by
    `ctx.import_alongside`)."""

    statement: cst.ImportFrom
    new_name: str


Edit = AddStatementAfter | DropUse | RenameBinding | MoveBinding | TrackUses
"""The edits a rule passes to `ctx.report`."""

AnyEdit = Edit | AddImport | ImportAlongside
"""Every edit the engine carries out: a rule's, and the imports its new names bring."""
