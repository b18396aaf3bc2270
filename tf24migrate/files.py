"""Reading and writing source files without changing anything the migration did not change.

The encoding (PEP 263 cookie, UTF-8 BOM) and the line endings are kept exactly: text is decoded
without newline translation and encoded back the same way. Writes are atomic: a temporary file in
the same folder, then `os.replace`, with the original's permission bits. A symlink is written
through (its target is replaced, the link stays). A file whose bytes changed since they were read
is not overwritten. Ctrl-C during a write is held back until the file is either old or new.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import signal
import stat
import tempfile
import threading
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

TEMPORARY_PREFIX = ".tf24migrate-"


class UnreadableFile(ValueError):
    """A file that is not text we can decode; the message says why."""


class ChangedOnDisk(OSError):
    """The file changed between reading it and writing the migrated version."""


@dataclass(frozen=True)
class SourceFile:
    text: str
    encoding: str
    raw: bytes


def decode_source(raw: bytes) -> SourceFile:
    """Decode Python source bytes as Python would (cookie or BOM, else UTF-8)."""
    if b"\x00" in raw:
        zero = raw.index(b"\x00")
        line = raw.count(b"\n", 0, zero) + 1
        raise UnreadableFile(f"binary file (NUL byte at line {line})")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as error:
        raise UnreadableFile(f"bad encoding declaration: {error}") from None
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise UnreadableFile(
            f"cannot decode as {encoding} at line {line} (byte {error.start}): {error.reason}; "
            f"declare the file's encoding with a `# -*- coding: ... -*-` line"
        ) from None
    except LookupError as error:
        raise UnreadableFile(f"unknown encoding: {error}") from None
    return SourceFile(text=text, encoding=encoding, raw=raw)


def digest(raw: bytes) -> str:
    """A fingerprint of a file's bytes, to tell later whether it changed on disk."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def read_source(path: str) -> SourceFile:
    with open(path, "rb") as handle:
        return decode_source(handle.read())


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) until the block is done, then raise it; a no-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:
            if callable(previous):
                previous(signal.SIGINT, None)
            elif previous == signal.SIG_DFL:
                os.kill(os.getpid(), signal.SIGINT)


def write_source(path: str, text: str, encoding: str, *, expected_digest: str | None = None) -> None:
    """Replace the file at `path` atomically with `text` encoded as `encoding`.

    With `expected_digest`, the file's current bytes must still have that `digest`: otherwise
    `ChangedOnDisk` is raised and nothing is written.
    """
    data = text.encode(encoding)
    real = os.path.realpath(path)  # write through a symlink, never replace the link itself
    directory = os.path.dirname(real) or "."
    with interrupts_deferred():
        if expected_digest is not None:
            with open(real, "rb") as handle:
                if digest(handle.read()) != expected_digest:
                    raise ChangedOnDisk(f"{path} changed on disk after it was read; it was not overwritten")
        mode = stat.S_IMODE(os.stat(real).st_mode)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=TEMPORARY_PREFIX, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(temporary, mode)
            os.replace(temporary, real)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
