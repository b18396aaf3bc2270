"""Migrating files: read, migrate, and (when asked) write, one `FileResult` per file."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from tf24migrate.c_sources import SUFFIXES as C_SUFFIXES
from tf24migrate.c_sources import scan_c_source
from tf24migrate.discovery import iter_source_files
from tf24migrate.engine import RuleError, SourceSyntaxError, run_rules
from tf24migrate.files import UnreadableFile, read_source, write_source
from tf24migrate.findings import FileResult, MigrationResult, Status
from tf24migrate.notebooks import migrate_notebook
from tf24migrate.rules import Rule, select_rules

# How each kind of file is migrated, by suffix: `(text, rules, *, path, unsafe_fixes) -> MigrationResult`.
# Folders are walked for these suffixes; a file named explicitly with another suffix is treated as Python.
MigrateText = Callable[..., MigrationResult]
HANDLERS: dict[str, MigrateText] = {".py": run_rules, ".ipynb": migrate_notebook}
HANDLERS.update(dict.fromkeys(C_SUFFIXES, scan_c_source))  # report-only: TF24701


def handler_for(path: str) -> MigrateText:
    return HANDLERS.get(os.path.splitext(path)[1].lower(), run_rules)


def migrate_file(
    path: str, rules: tuple[Rule, ...], *, unsafe_fixes: bool = False, write: bool = False
) -> FileResult:
    """Migrate one file; errors become a failed `FileResult` naming the reason."""
    try:
        source = read_source(path)
    except (OSError, UnreadableFile) as error:
        return FileResult(path=path, status=Status.FAILED, error=f"cannot read: {error}")
    try:
        result = handler_for(path)(source.text, rules, path=path, unsafe_fixes=unsafe_fixes)
    except SourceSyntaxError as error:
        return FileResult(
            path=path,
            status=Status.FAILED,
            source=source.text,
            error=f"{error.msg} at line {error.lineno}, column {error.offset}",
        )
    except RuleError as error:
        return FileResult(path=path, status=Status.FAILED, source=source.text, error=str(error))
    status = Status.CHANGED if result.changed else Status.UNCHANGED
    written = False
    if write and result.changed:
        try:
            write_source(path, result.code, source.encoding)
            written = True
        except OSError as error:
            return FileResult(
                path=path,
                status=Status.FAILED,
                source=source.text,
                code=result.code,
                findings=result.findings,
                error=f"cannot write: {error}",
            )
    return FileResult(
        path=path,
        status=status,
        source=source.text,
        code=result.code,
        findings=result.findings,
        written=written,
    )


def migrate_paths(
    paths: Iterable[str],
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    unsafe_fixes: bool = False,
    write: bool = False,
) -> Iterator[FileResult]:
    """Migrate every Python file in `paths` (files, or folders walked for `*.py`).

    Yields one `FileResult` per file, in a stable order. Files are written only when `write` is
    true; a file that cannot be read or parsed is reported as failed and the others go on.
    Raises `MissingPathError` for a path that does not exist.
    """
    rules = select_rules(select, ignore)
    for path in iter_source_files(paths, tuple(HANDLERS)):
        yield migrate_file(path, rules, unsafe_fixes=unsafe_fixes, write=write)
