"""The kinds of file the tool reads (Python, notebooks, C and C++), behind one protocol.

A `SourceKind` names its suffixes, how a text of that kind is migrated (`MigrateText`: text and
rules in, `MigrationResult` out, never touching files) and how its change is shown as a diff.
Each kind's module is imported only when a file of that kind is met, and the Python kind loads
neither the rules nor LibCST for a text in which no rule could fire.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.findings import MigrationResult
from tf24migrate.sources.diff import unified_diff


class MigrateText(Protocol):
    def __call__(self, text: str, settings: Settings, *, path: str | None = None) -> MigrationResult: ...


@dataclass(frozen=True)
class SourceKind:
    name: str
    suffixes: tuple[str, ...]
    migrate: MigrateText
    diff: Callable[[str, str, str], str]  # (path, before, after) -> the diff `--diff` prints
    any_bytes: bool = False  # bytes that are not UTF-8 are read as they are, not refused (C, C++)


def _migrate_python(text: str, settings: Settings, *, path: str | None = None) -> MigrationResult:
    from tf24migrate.catalogue.prefilter import could_fire  # not imported by a run of cached files

    # no rule can fire: neither the rules nor LibCST need loading
    if not could_fire(text, settings.rules, path=path):
        from tf24migrate.engine.suppressions import with_unknown_suppressions

        return with_unknown_suppressions(MigrationResult(source=text, code=text), path)
    from tf24migrate.engine.loading import load_engine

    load_engine()
    from tf24migrate.engine.pipeline import run_rules

    return run_rules(text, settings, path=path)


def _migrate_notebook(text: str, settings: Settings, *, path: str | None = None) -> MigrationResult:
    from tf24migrate.sources.notebook import migrate_notebook

    return migrate_notebook(text, settings, path=path)


def _scan_c_source(text: str, settings: Settings, *, path: str | None = None) -> MigrationResult:
    from tf24migrate.sources.c_sources import scan_c_source

    return scan_c_source(text, settings, path=path)


def _notebook_diff(path: str, before: str, after: str) -> str:
    from tf24migrate.sources.notebook import notebook_diff

    return notebook_diff(path, before, after)


PYTHON = SourceKind("Python", (".py", ".pyi"), _migrate_python, unified_diff)  # stubs too, as ruff
NOTEBOOK = SourceKind("notebook", (".ipynb",), _migrate_notebook, _notebook_diff)  # diff per cell
C_SOURCE = SourceKind(  # report-only
    "C/C++", (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp"), _scan_c_source, unified_diff, any_bytes=True
)
KINDS = (PYTHON, NOTEBOOK, C_SOURCE)
BY_SUFFIX = {suffix: kind for kind in KINDS for suffix in kind.suffixes}
# The suffixes folders are walked for.
SUFFIXES = tuple(BY_SUFFIX)


def kind_of(path: str) -> SourceKind:
    """The kind of file `path` is, by its suffix; Python for any other suffix or none."""
    return BY_SUFFIX.get(os.path.splitext(path)[1].lower(), PYTHON)


def handles(path: str) -> bool:
    """Whether `path` is a kind of file the tool handles: one of `SUFFIXES`, or a script with no
    suffix whose first line is a Python shebang (`#!...python`)."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix:
        return suffix in BY_SUFFIX
    try:
        with open(path, "rb") as handle:
            first = handle.readline(200)
    except OSError:
        return True  # let the run say why it cannot be read
    return first.startswith(b"#!") and b"python" in first
