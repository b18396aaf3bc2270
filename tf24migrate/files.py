"""Reading and writing source files without changing anything the migration did not change.

The encoding (PEP 263 cookie, UTF-8 BOM) and the line endings are kept exactly: text is decoded
without newline translation and encoded back the same way. Writes are atomic: a temporary file in
the same folder, then `os.replace`, with the original's permission bits.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
import tokenize
from dataclasses import dataclass


class UnreadableFile(ValueError):
    """A file that is not text we can decode; the message says why."""


@dataclass(frozen=True)
class SourceFile:
    text: str
    encoding: str
    raw: bytes


def read_source(path: str) -> SourceFile:
    with open(path, "rb") as handle:
        raw = handle.read()
    if b"\x00" in raw:
        raise UnreadableFile("binary file (contains NUL bytes)")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as error:
        raise UnreadableFile(f"bad encoding declaration: {error}") from None
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        raise UnreadableFile(f"cannot decode as {encoding}: {error}") from None
    return SourceFile(text=text, encoding=encoding, raw=raw)


def write_source(path: str, text: str, encoding: str) -> None:
    """Replace the file at `path` atomically with `text` encoded as `encoding`."""
    data = text.encode(encoding)
    real = os.path.realpath(path)  # write through a symlink, never replace the link itself
    directory = os.path.dirname(real) or "."
    mode = stat.S_IMODE(os.stat(real).st_mode)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".tf24migrate-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, real)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
