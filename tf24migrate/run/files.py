"""Reading and writing source files without changing anything the migration did not change.

The encoding (PEP 263 cookie, UTF-8 BOM) and the line endings are kept exactly: text is decoded
without newline translation and encoded back the same way (for the codecs where that is not the
identity, the edited lines are spliced between the file's own bytes: `run.encodings`). Writes are
atomic: a temporary file in the same folder, flushed to disk, then `os.replace`, with the
original's permission bits, owner, group and extended attributes. A symlink is written through (its
target is replaced, the link stays), to where it led when the run started: the folder is opened
one component at a time and the file in it, neither through a symlink, so a file or folder swapped
for a symlink during the run is refused, never written through. Where a file is expected, only a
regular file is opened, never blocking (`open_regular_file`: a FIFO or a device is refused, not
waited on). Refused (`NotWritable`), with nothing written: a read-only file (no write permission
bit, for root too), a file with several hard links (replacing it would split them), a file whose
owner, group or extended attributes cannot be kept, a file in an append-only folder (no temporary
file is made there, where none could be removed).

A file whose bytes changed since they were read is not overwritten (`ChangedOnDisk`): it is
checked again (size, modification time, inode, digest) after the new text is on disk, right before
the rename; and where the system can swap two names at once (Linux), the rename is that swap, after
which the file swapped out must still be the one checked: an editor's save between the check and
the rename is swapped back. Writers in one folder take turns (an exclusive lock on the folder, waited for at most
`run.folder_lock`), so two runs over one tree never interleave their check and
rename. A temporary file is named after its own device and inode with a keyed digest, so a
temporary file a killed run left behind is removed by the next write in its folder and a user's
file of a similar name never is. Ctrl-C (and SIGTERM, SIGHUP) during a write is held back
until the file is either old or new.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import io
import os
import signal
import stat
import sys
import threading
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from hashlib import blake2b

from tf24migrate.run.encodings import LinesNotKept, encoded_like
from tf24migrate.run.folder_lock import folder_lock
from tf24migrate.run.temporaries import create_temporary, remove_leftovers


class UnreadableFile(ValueError):
    """A file that is not text we can decode; the message says why."""


class ChangedOnDisk(OSError):
    """The file changed between reading it and writing the migrated version."""


class NotWritable(OSError):
    """A file that must not be replaced (read-only, hard-linked, attributes that cannot be kept)."""


class NotRegularFile(OSError):
    """A path where a regular file is expected holds something else (a FIFO, a device, a
    folder, a socket; or a symlink where none may be followed)."""


def open_regular_file(path: str, *, dir_fd: int | None = None, follow_symlinks: bool = True) -> int:
    """A read-only descriptor of the regular file `path` (relative to `dir_fd` if given). Opening
    never blocks (a FIFO opens at once, non-blocking) and anything but a regular file is closed
    again: `NotRegularFile`. Without `follow_symlinks`, a symlink is refused the same way."""
    flags = (
        os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    )
    if not follow_symlinks:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow_symlinks:
            raise NotRegularFile(errno.ELOOP, "a symlink, not a regular file", path) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFile(errno.EINVAL, f"not a regular file ({_kind_of_mode(mode)})", path)
    if flags & getattr(os, "O_NONBLOCK", 0):
        os.set_blocking(fd, True)
    return fd


def _kind_of_mode(mode: int) -> str:
    return {
        stat.S_IFIFO: "a FIFO",
        stat.S_IFCHR: "a character device",
        stat.S_IFBLK: "a block device",
        stat.S_IFSOCK: "a socket",
        stat.S_IFDIR: "a folder",
    }.get(stat.S_IFMT(mode), "not a file")


def read_regular_file(
    path: str, *, dir_fd: int | None = None, follow_symlinks: bool = True
) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file `path` and its status, read with the fewest calls (see
    `open_regular_file` for what is refused)."""
    fd = open_regular_file(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
    try:
        status = os.fstat(fd)
        chunks = [os.read(fd, max(status.st_size, 1))]
        while chunks[-1]:  # a file that grew, or a size the file system does not tell
            chunks.append(os.read(fd, 1 << 20))
        return b"".join(chunks), status
    finally:
        os.close(fd)


@dataclass(frozen=True)
class SourceFile:
    text: str
    encoding: str
    raw: bytes | None  # None: a text that was never bytes (an editor's), never written


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
        raise UnreadableFile(
            f"cannot decode as {encoding} at {_place(raw, error.start)}: {error.reason}; "
            f"declare the file's encoding with a `# -*- coding: ... -*-` line"
        ) from None
    except LookupError as error:
        raise UnreadableFile(f"unknown encoding: {error}") from None
    return SourceFile(text=text, encoding=encoding, raw=raw)


def decode_notebook(raw: bytes) -> SourceFile:
    """Decode a notebook's bytes: JSON, which nbformat writes as UTF-8 (a UTF-8 byte order mark
    is kept); the messages of a refusal speak of notebooks, not of Python source."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableFile(
            "a UTF-16 notebook (its byte order mark says so); notebooks are UTF-8 JSON: convert it "
            "(`iconv -f UTF-16 -t UTF-8`) or save it again from Jupyter to migrate it"
        )
    _refuse_binary(raw)
    encoding = "utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else "utf-8"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        raise UnreadableFile(
            f"not UTF-8 at {_place(raw, error.start)}: a notebook is UTF-8 JSON; save it again "
            "from Jupyter (or convert it with `iconv -t UTF-8`) to migrate it"
        ) from None
    return SourceFile(text=text, encoding=encoding, raw=raw)


def _place(raw: bytes, offset: int) -> str:
    line = raw.count(b"\n", 0, offset) + 1
    return f"line {line} (byte {offset})"


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
    return decode_source(read_regular_file(path)[0])


# The signals that stop a run: Ctrl-C, and (where they exist) `kill` and a closed terminal.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


# The stop signals held back by `interrupts_deferred` (a wait inside it ends early when one came).
_DEFERRED: list[int] = []


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP until the block is done, then deliver them to the
    handlers they would have reached; a no-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = _DEFERRED
    previous = {
        number: signal.signal(number, lambda signum, frame: received.append(signum))
        for number in STOP_SIGNALS
    }
    try:
        yield
    finally:
        received = list(_DEFERRED)
        _DEFERRED.clear()
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(received):
            handler = previous[number]
            if callable(handler):
                handler(number, None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), number)


def write_source(
    path: str, text: str, encoding: str, *, expected_digest: str | None = None, real: str | None = None
) -> None:
    """Replace the file at `path` atomically with `text` encoded as `encoding`.

    `real` is the file's real path as found when the run started (default: resolved now): its
    folder is opened one component at a time without following a symlink, and the file in it
    without following one, so a file or folder swapped for a symlink since is refused
    (`ChangedOnDisk`), never written through. With `expected_digest`, the file's current bytes must
    still have that `digest`: otherwise `ChangedOnDisk` is raised and nothing is written.
    `NotWritable` when the file must not be replaced (see the module docstring); `FolderLocked`
    when another process holds the folder's lock longer than `LOCK_TIMEOUT`.
    """
    real = real or os.path.realpath(path)  # write through a symlink, never replace the link itself
    directory, name = os.path.split(real)
    folder = _open_folder(path, directory or ".")
    try:
        with folder_lock(folder, directory or ".", lambda: bool(_DEFERRED)), interrupts_deferred():
            remove_leftovers(folder, directory or ".")
            current = _open_in(path, folder, name)
            try:
                before = os.fstat(current)
                _check_replaceable(path, before)
                _check_folder_replaceable(path, folder, directory or ".")
                try:
                    data = encoded_like(text, encoding, lambda: _read_all(current))
                except LinesNotKept as error:
                    raise NotWritable(f"{path}: {error}") from None
                temporary, fd = create_temporary(folder)
                try:
                    with os.fdopen(fd, "wb") as handle:
                        handle.write(data)
                        handle.flush()
                        os.fsync(handle.fileno())
                        _copy_metadata(path, current, handle.fileno(), before)
                    if expected_digest is not None:
                        _check_unchanged(path, folder, name, expected_digest, before)
                        _replace_checked(path, folder, temporary, name, before)
                    else:
                        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
                except BaseException:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(temporary, dir_fd=folder)
                    raise
            finally:
                os.close(current)
    finally:
        os.close(folder)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _open_folder(path: str, directory: str) -> int:
    """A descriptor of `directory` reached one component at a time from the root (or the current
    folder), none of them followed if it is a symlink; `ChangedOnDisk` if one is now."""
    absolute = os.path.abspath(directory)
    fd = os.open(os.sep, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in [part for part in absolute.split(os.sep) if part]:
            try:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise ChangedOnDisk(
                        f"{path}: a folder on its path was replaced by a symlink or a file after the "
                        "run started; it was not written"
                    ) from None
                raise
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_in(path: str, folder: int, name: str) -> int:
    """The file `name` in `folder`, opened for reading, not through a symlink, never blocking, and
    only if regular."""
    try:
        return open_regular_file(name, dir_fd=folder, follow_symlinks=False)
    except NotRegularFile:
        raise ChangedOnDisk(
            f"{path} was replaced by a symlink or something not a regular file after the run started; "
            "it was not written"
        ) from None


def _check_replaceable(path: str, status: os.stat_result) -> None:
    if not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise NotWritable(f"{path} is read-only (no write permission): make it writable to migrate it")
    if status.st_nlink > 1:
        raise NotWritable(
            f"{path} has {status.st_nlink} hard links: replacing it would split them; "
            "migrate a copy, or make it the only link"
        )


# Linux's `FS_IOC_GETFLAGS` (what `lsattr` shows) and its append-only flag (`chattr +a`).
_GET_FLAGS = 0x80086601
_APPEND_ONLY = 0x20


def _check_folder_replaceable(path: str, folder: int, directory: str) -> None:
    """`NotWritable` for a folder where a file can be added but none renamed or removed (append-
    only): a temporary file made there could neither replace the file nor be removed again."""
    try:
        import fcntl

        flags = int.from_bytes(fcntl.ioctl(folder, _GET_FLAGS, bytes(8))[:4], sys.byteorder)
    except (ImportError, OSError):  # not Linux, or a file system without these flags
        return
    if flags & _APPEND_ONLY:
        raise NotWritable(
            f"{path}: its folder {directory} is append-only (`chattr +a`): no file in it can be "
            "replaced; nothing written: remove the attribute (`chattr -a`) to migrate it"
        )


def _check_unchanged(path: str, folder: int, name: str, expected_digest: str, before: os.stat_result) -> None:
    """Raise `ChangedOnDisk` when the file's bytes are not what was read, or its size, modification
    time, device or inode changed since `before`."""
    fd = _open_in(path, folder, name)
    with os.fdopen(fd, "rb") as handle:
        if _identity(os.fstat(fd)) != _identity(before) or digest(handle.read()) != expected_digest:
            raise ChangedOnDisk(f"{path} changed on disk after it was read; it was not overwritten")


def _replace_checked(path: str, folder: int, temporary: str, name: str, before: os.stat_result) -> None:
    """Put `temporary` in place of `name`, which was just checked to be the file read (`before`),
    never over a file saved since. Where the system can swap two names at once (`_exchange`), the
    two are swapped and the file swapped out is compared with `before`: its inode, and its size and
    modification time, which nothing can change any more through a name of the folder. A file saved
    in between is swapped back (and should another save land while it is, the newest stays), and
    `ChangedOnDisk` is raised. Elsewhere, a plain rename: the window is then the microseconds
    since the check."""
    ours = os.stat(temporary, dir_fd=folder, follow_symlinks=False).st_ino
    if not _exchange(folder, temporary, name):
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        return
    old = os.stat(temporary, dir_fd=folder, follow_symlinks=False)
    if _identity(old) == _identity(before):
        os.unlink(temporary, dir_fd=folder)
        return
    _exchange(folder, temporary, name)  # the user's file back in place
    if os.stat(temporary, dir_fd=folder, follow_symlinks=False).st_ino != ours:
        _exchange(folder, temporary, name)  # saved again meanwhile: the newest save stays
    os.unlink(temporary, dir_fd=folder)
    raise ChangedOnDisk(f"{path} changed on disk after it was read; it was not overwritten")


def _identity(status: os.stat_result) -> tuple[int, int, int, int]:
    """What tells a file from the one read: its inode and device, its size and modification time."""
    return status.st_ino, status.st_dev, status.st_size, status.st_mtime_ns


_RENAME_EXCHANGE = 2  # linux/fs.h


def _exchange(folder: int, first: str, second: str) -> bool:
    """Swap the names `first` and `second` of `folder` in one step (Linux's `renameat2` with
    `RENAME_EXCHANGE`); False where the system, its C library or the file system cannot."""
    call = _renameat2()
    if call is None:
        return False
    if call(folder, os.fsencode(first), folder, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    number = ctypes.get_errno()
    if number in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(number, os.strerror(number), second)


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library older than glibc 2.28, or none to load
        return None


def _copy_metadata(path: str, current: int, temporary: int, status: os.stat_result) -> None:
    """Give the file open as `temporary` the permission bits, owner, group and extended attributes
    of the one open as `current`."""
    os.fchmod(temporary, stat.S_IMODE(status.st_mode))
    if hasattr(os, "fchown"):
        written = os.fstat(temporary)
        if (written.st_uid, written.st_gid) != (status.st_uid, status.st_gid):
            try:
                os.fchown(temporary, status.st_uid, status.st_gid)
            except OSError:
                raise NotWritable(
                    f"{path} belongs to another user or group, which a rewrite cannot keep: "
                    "migrate it as its owner"
                ) from None
        os.fchmod(temporary, stat.S_IMODE(status.st_mode))  # chown may clear set-id bits
    if hasattr(os, "listxattr"):
        try:
            names = os.listxattr(current)
        except OSError:
            names = []  # a file system without extended attributes
        for name in names:
            try:
                os.setxattr(temporary, name, os.getxattr(current, name))
            except OSError as error:
                raise NotWritable(
                    f"{path} has extended attributes that a rewrite cannot keep ({name}: {error.strerror})"
                ) from None
