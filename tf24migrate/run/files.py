"""Reading and writing source files without changing anything the migration did not change.

The encoding (PEP 263 cookie, UTF-8 BOM) and the line endings are kept exactly: text is decoded
without newline translation and encoded back the same way. Writes are atomic: a temporary file in
the same folder, flushed to disk, then `os.replace`, with the original's permission bits, owner,
group and extended attributes. A symlink is written through (its target is replaced, the link
stays). Refused (`NotWritable`), with nothing written: a read-only file (no write permission bit,
for root too), a file with several hard links (replacing it would split them), a file whose owner,
group or extended attributes cannot be kept.

A file whose bytes changed since they were read is not overwritten (`ChangedOnDisk`): it is
checked again (size, modification time, inode, digest) after the new text is on disk, right before
the rename. Writers in one folder take turns (an exclusive lock on the folder), so two runs over
one tree never interleave their check and rename; a temporary file a killed run left behind is
removed by the next write in its folder. Ctrl-C (and SIGTERM, SIGHUP) during a write is held back
until the file is either old or new.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import stat
import threading
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

try:  # hashlib's own blake2b, without hashlib loading OpenSSL: a warm run digests before all else
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - not CPython
    from hashlib import blake2b

TEMPORARY_PREFIX = ".tf24migrate-"


class UnreadableFile(ValueError):
    """A file that is not text we can decode; the message says why."""


class ChangedOnDisk(OSError):
    """The file changed between reading it and writing the migrated version."""


class NotWritable(OSError):
    """A file that must not be replaced (read-only, hard-linked, attributes that cannot be kept)."""


@dataclass(frozen=True)
class SourceFile:
    text: str
    encoding: str
    raw: bytes


def decode_source(raw: bytes) -> SourceFile:
    """Decode Python source bytes as Python would (cookie or BOM, else UTF-8)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableFile(
            "UTF-16 text (its byte order mark says so), which Python cannot run as source: "
            "convert it to UTF-8 (`iconv -f UTF-16 -t UTF-8`) to migrate it"
        )
    _refuse_binary(raw)
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


def decode_c_source(raw: bytes) -> SourceFile:
    """Decode C or C++ source bytes: as UTF-8, a byte that is not (a Latin-1 comment, which
    compilers accept) kept as it is (`surrogateescape`). No rule rewrites C sources."""
    _refuse_binary(raw)
    return SourceFile(text=raw.decode("utf-8", "surrogateescape"), encoding="utf-8", raw=raw)


def _refuse_binary(raw: bytes) -> None:
    if b"\x00" in raw:
        zero = raw.index(b"\x00")
        line = raw.count(b"\n", 0, zero) + 1
        raise UnreadableFile(f"binary file (NUL byte at line {line})")


def digest(raw: bytes) -> str:
    """A fingerprint of a file's bytes, to tell later whether it changed on disk."""
    return blake2b(raw, digest_size=16).hexdigest()


def read_source(path: str) -> SourceFile:
    with open(path, "rb") as handle:
        return decode_source(handle.read())


# The signals that stop a run: Ctrl-C, and (where they exist) `kill` and a closed terminal.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP until the block is done, then deliver them to the
    handlers they would have reached; a no-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = {
        number: signal.signal(number, lambda signum, frame: received.append(signum))
        for number in STOP_SIGNALS
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(received):
            handler = previous[number]
            if callable(handler):
                handler(number, None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), number)


def write_source(path: str, text: str, encoding: str, *, expected_digest: str | None = None) -> None:
    """Replace the file at `path` atomically with `text` encoded as `encoding`.

    With `expected_digest`, the file's current bytes must still have that `digest`: otherwise
    `ChangedOnDisk` is raised and nothing is written. `NotWritable` when the file must not be
    replaced (see the module docstring).
    """
    import tempfile  # only a run that writes needs it

    data = text.encode(encoding)
    real = os.path.realpath(path)  # write through a symlink, never replace the link itself
    directory = os.path.dirname(real) or "."
    with interrupts_deferred(), _folder_lock(directory):
        _remove_leftovers(directory)
        before = os.stat(real)
        _check_replaceable(path, before)
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=TEMPORARY_PREFIX, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            _copy_metadata(path, real, temporary, before)
            if expected_digest is not None:
                _check_unchanged(path, real, expected_digest, before)
            os.replace(temporary, real)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


@contextlib.contextmanager
def _folder_lock(directory: str) -> Iterator[None]:
    """An exclusive lock on `directory`, held by one writer at a time (a no-op where unsupported)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Linux
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


# Folders this process has already cleared of leftovers: each is scanned once, not once per write.
_CLEARED: set[str] = set()


def _remove_leftovers(directory: str) -> None:
    """Remove the temporary files a killed run left in `directory`, on this process's first write
    there: under the folder's lock, no other writer has one there."""
    if directory in _CLEARED:
        return
    _CLEARED.add(directory)
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.startswith(TEMPORARY_PREFIX) and entry.name.endswith(".tmp") and entry.is_file():
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _check_replaceable(path: str, status: os.stat_result) -> None:
    if not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise NotWritable(f"{path} is read-only (no write permission): make it writable to migrate it")
    if status.st_nlink > 1:
        raise NotWritable(
            f"{path} has {status.st_nlink} hard links: replacing it would split them; "
            "migrate a copy, or make it the only link"
        )


def _check_unchanged(path: str, real: str, expected_digest: str, before: os.stat_result) -> None:
    """Raise `ChangedOnDisk` when the file's bytes are not what was read, or its size, modification
    time or inode changed since `before`."""
    with open(real, "rb") as handle:
        now = os.fstat(handle.fileno())
        changed = (now.st_size, now.st_mtime_ns, now.st_ino) != (
            before.st_size,
            before.st_mtime_ns,
            before.st_ino,
        )
        if changed or digest(handle.read()) != expected_digest:
            raise ChangedOnDisk(f"{path} changed on disk after it was read; it was not overwritten")


def _copy_metadata(path: str, real: str, temporary: str, status: os.stat_result) -> None:
    """Give `temporary` the permission bits, owner, group and extended attributes of `real`."""
    os.chmod(temporary, stat.S_IMODE(status.st_mode))
    if hasattr(os, "chown"):
        written = os.stat(temporary)
        if (written.st_uid, written.st_gid) != (status.st_uid, status.st_gid):
            try:
                os.chown(temporary, status.st_uid, status.st_gid)
            except OSError:
                raise NotWritable(
                    f"{path} belongs to another user or group, which a rewrite cannot keep: "
                    "migrate it as its owner"
                ) from None
        os.chmod(temporary, stat.S_IMODE(status.st_mode))  # chown may clear set-id bits
    if hasattr(os, "listxattr"):
        try:
            names = os.listxattr(real)
        except OSError:
            names = []  # a file system without extended attributes
        for name in names:
            try:
                os.setxattr(temporary, name, os.getxattr(real, name))
            except OSError as error:
                raise NotWritable(
                    f"{path} has extended attributes that a rewrite cannot keep ({name}: {error.strerror})"
                ) from None
