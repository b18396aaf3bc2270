"""The options saying how to migrate, shared by the command and `tf24migrate verify` (which
migrates a copy as the command would): one definition, one help text."""

from __future__ import annotations

from typing import Annotated

import typer

SELECTION_PANEL, FIXES_PANEL = "Rule selection", "Fixes"


def _rules(help: str):
    """A repeatable option naming rules (codes, names, prefixes), of the selection panel."""
    return typer.Option(help=help, metavar="RULES", rich_help_panel=SELECTION_PANEL)


Select = Annotated[
    list[str] | None, _rules("Rules to run: codes, names, prefixes or 'all' (repeat, or comma-separate).")
]
ExtendSelect = Annotated[list[str] | None, _rules("Rules to run on top of the selection.")]
Ignore = Annotated[list[str] | None, _rules("Rules (and notes) to leave out.")]
TargetVersion = Annotated[
    str | None,
    typer.Option(
        help="Oldest TensorFlow the code must run on (default: the project's requirements, else "
        "2.4); fixes needing a newer one are only reported.",
        metavar="X.Y",
        rich_help_panel=FIXES_PANEL,
    ),
]
UnsafeFixes = Annotated[
    bool | None,
    typer.Option(
        "--unsafe-fixes/--no-unsafe-fixes",
        help="Also apply fixes that may change behaviour.",
        show_default=False,
        rich_help_panel=FIXES_PANEL,
    ),
]
