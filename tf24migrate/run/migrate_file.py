"""One file: read it, migrate it (never writing), and write a changed result safely."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.errors import RuleError, SourceSyntaxError
from tf24migrate.model.findings import FileResult, Finding, MigrationResult, Status
from tf24migrate.model.notes import SYNTAX_ERROR, note_finding, without_notes
from tf24migrate.run.encodings import LinesNotKept, encoded_like
from tf24migrate.run.files import (
    ChangedOnDisk,
    SourceFile,
    UnreadableFile,
    decode_c_source,
    decode_notebook,
    decode_source,
    digest,
    read_regular_file,
    write_source,
)
from tf24migrate.run.importers import rebound
from tf24migrate.sources.kinds import NOTEBOOK, PYTHON, kind_of

if TYPE_CHECKING:
    from tf24migrate.run.cache import ResultCache


def write_result(
    result: FileResult, again: Callable[[], FileResult] | None = None, *, real: str | None = None
) -> FileResult:
    """Write a changed result's code over its file, unless the file changed since it was read.
    Then, with `again`, the file is migrated again from what it holds now (`again()`) and that
    result written, once: so two runs over one tree both keep their rewrites. `real` is the file's
    real path when the run started (see `write_source`)."""
    assert result.encoding is not None and result.digest is not None  # a changed result has them
    try:
        write_source(
            result.path, result.code or "", result.encoding, expected_digest=result.digest, real=real
        )
    except ChangedOnDisk as error:
        if again is not None:
            fresh = again()
            return write_result(fresh, real=real) if fresh.changed else fresh
        return _not_written(result, str(error))
    except UnicodeEncodeError as error:
        return _not_written(result, _does_not_fit(error))
    except OSError as error:
        return _not_written(result, f"cannot write: {error}")
    return dataclasses.replace(result, written=True)


def encoded_result(result: FileResult, raw: bytes) -> tuple[FileResult, bytes]:
    """A changed result's code as the bytes of the file whose bytes were `raw` (what a run on
    stdin prints): `encoded_like` keeps every byte outside the edits in the codecs that do not
    round-trip, as a write does; where it cannot, `raw` as it was, and the result says why."""
    assert result.encoding is not None  # a changed result has it
    try:
        return result, encoded_like(result.code or "", result.encoding, lambda: raw)
    except UnicodeEncodeError as error:
        return _not_written(result, _does_not_fit(error)), raw
    except LinesNotKept as error:
        return _not_written(result, f"cannot write: {error}"), raw


def _does_not_fit(error: UnicodeEncodeError) -> str:
    return f"cannot write: the new code does not fit in {error.encoding}"


def _not_written(result: FileResult, error: str) -> FileResult:
    """A changed result whose write failed: failed, and none of its fixes applied (none is on disk)."""
    findings = tuple(dataclasses.replace(f, applied=False) for f in result.findings)
    return dataclasses.replace(result, status=Status.FAILED, error=error, findings=findings)


def migrate_file(
    path: str, settings: Settings, *, write: bool = False, cache: ResultCache | None = None
) -> FileResult:
    """Migrate one file; errors become a failed `FileResult` naming the reason and the place.

    With `cache`, the texts of a change are stored there (as they were before any write), and the
    result carries the digest of the bytes read, for the caller to index (`ResultCache.remember`)."""
    try:
        raw = read_regular_file(path)[0]
    except OSError as error:
        return FileResult(path=path, status=Status.FAILED, error=f"cannot read: {error.strerror or error}")
    result = _migrate_read(path, raw, settings, cache)
    return write_result(result) if write and result.changed else result


def result_without_rules(
    path: str, settings: Settings, *, cache: ResultCache | None = None
) -> FileResult | None:
    """`migrate_file`'s result, or None when the rules must read the file: Python code in which a
    rule could fire. For the others neither the rules nor LibCST are loaded here, but by the kind
    that needs them (a notebook with a cell a rule could fire in, a C source)."""
    if kind_of(path) is not PYTHON:
        return migrate_file(path, settings, cache=cache)
    try:
        raw = read_regular_file(path)[0]
        source = decode_file(path, raw)
    except (OSError, UnreadableFile):
        return migrate_file(path, settings, cache=cache)  # which says why
    from tf24migrate.catalogue.prefilter import could_fire  # not imported by a run of cached files

    if could_fire(source.text, settings.rules, path=path):
        return None
    return _migrate_read(path, raw, settings, cache, source)


def _migrate_read(
    path: str, raw: bytes, settings: Settings, cache: ResultCache | None, source: SourceFile | None = None
) -> FileResult:
    """`migrate_file`'s result for the bytes read, `raw` (`source`: their text, when decoded)."""
    try:
        result = migrate_loaded(path, source if source is not None else decode_file(path, raw), settings)
    except UnreadableFile as error:
        result = FileResult(path=path, status=Status.FAILED, error=f"cannot read: {error}")
    if cache is not None:
        content = result.digest or digest(raw)
        if result.changed:
            cache.store(path, content, result)
        result = dataclasses.replace(result, digest=content)
    return result


def load_rules(settings: Settings) -> None:
    """Load the rules of `settings` and the engine (and so LibCST), as the first file the rules
    read does: worker processes forked after this inherit them."""
    from tf24migrate.engine.loading import load_engine

    load_engine()
    len(settings.rules)  # a `RuleSelection` loads its rules when first asked


def decode_file(path: str, raw: bytes) -> SourceFile:
    """The text of the file `path`, whose bytes are `raw`, as its kind reads it; `UnreadableFile`."""
    kind = kind_of(path)
    if kind.any_bytes:
        return decode_c_source(raw)
    return decode_notebook(raw) if kind is NOTEBOOK else decode_source(raw)


def migrate_loaded(path: str, source: SourceFile, settings: Settings) -> FileResult:
    """Migrate a file already read (or a source from stdin, with a made-up `path`); never writes."""
    try:
        result = kind_of(path).migrate(source.text, settings, path=path)
    except SourceSyntaxError as error:
        where = {"path": path, "line": error.lineno or 1, "column": error.offset or 1}
        return FileResult(
            path=path,
            status=Status.FAILED,
            source=source.text,
            error=error.msg
            if error.lineno is None
            else f"{error.msg} at line {error.lineno}, column {error.offset}",
            findings=without_notes((note_finding(SYNTAX_ERROR, error.msg, **where),), settings.hidden_notes),
        )
    except RuleError as error:
        return FileResult(path=path, status=Status.FAILED, source=source.text, error=str(error))
    except Exception as error:  # a bug in a rule must not stop a run over thousands of files
        return FileResult(
            path=path,
            status=Status.FAILED,
            source=source.text,
            error=f"internal error ({type(error).__name__}: {error}); the file was left unchanged. "
            f"Please report this with the file",
            cacheable=False,  # perhaps not a function of the content (a recursion limit)
        )
    if result.changed and result.edited is not None:
        from tf24migrate.engine.outside_edits import first_line_changed_outside  # LibCST ran: no cost

        line = first_line_changed_outside(source.text, result.code, result.edited)
        if line is not None:
            return FileResult(
                path=path,
                status=Status.FAILED,
                source=source.text,
                error=f"internal error: would change text outside the edited statements (line {line}); "
                "nothing written. Please report this with the file",
            )
    return FileResult(
        path=path,
        status=Status.CHANGED if result.changed else Status.UNCHANGED,
        source=source.text,
        code=result.code,
        findings=without_notes(result.findings, settings.hidden_notes),
        encoding=source.encoding if result.changed else None,
        digest=digest(source.raw) if result.changed and source.raw is not None else None,
        rebound=rebound(source.text, result.code) if result.changed and kind_of(path) is PYTHON else (),
    )


def kept_for_importers(path: str, source: SourceFile, settings: Settings, result: FileResult) -> FileResult:
    """`result` (of `source`, read from `path` or given as its text), or, where other files of its
    project import names its fixes rebind, the text migrated again keeping them (`run.importers`),
    as a run over files does: for the editor's server and a source on stdin."""
    if not result.rebound:
        return result
    from tf24migrate.run.importers import Importers

    found = Importers().of(path, result.rebound)
    if not found:
        return result
    kept = migrate_loaded(path, source, settings.importing(found))
    return dataclasses.replace(kept, digest=result.digest) if kept.changed else kept


def slim(result: FileResult, texts: bool) -> FileResult:
    if texts or result.status is Status.CHANGED or (result.source is None and result.code is None):
        return result
    return dataclasses.replace(result, source=None, code=None)


def migrate_declining(result: FileResult, settings: Settings, declined: Sequence[Finding]) -> MigrationResult:
    """`result`'s source migrated again with the fixes of the `declined` findings not applied (to
    show or write some of its fixes only: `--interactive`); never writes."""
    return kind_of(result.path).migrate(result.source or "", settings.declining(declined), path=result.path)
