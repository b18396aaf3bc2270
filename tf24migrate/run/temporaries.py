"""This tool's temporary files in a user's folder: created exclusively and named after their own
device and inode with a keyed digest, so that a leftover of a killed run is provably the tool's
(and removed) and a user's file of a similar name never is."""

from __future__ import annotations

import contextlib
import os
import stat
from hashlib import blake2b

TEMPORARY_PREFIX = ".tf24migrate-"


# The key of the names of this tool's temporary files (see `_is_own_temporary`).
_TEMPORARY_KEY = b"tf24migrate temporary file"


def _temporary_name(status: os.stat_result) -> str:
    mark = blake2b(f"{status.st_dev}:{status.st_ino}".encode(), key=_TEMPORARY_KEY, digest_size=10)
    return f"{TEMPORARY_PREFIX}{status.st_ino:x}-{mark.hexdigest()}.tmp"


def create_temporary(folder: int) -> tuple[str, int]:
    """A new temporary file in `folder` (created exclusively, then named after its own device and
    inode with `_temporary_name`, which a user's file cannot carry by chance): its name and a
    descriptor open for writing."""
    import secrets

    fresh = f"{TEMPORARY_PREFIX}{secrets.token_hex(8)}.new"
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder)
    try:
        name = _temporary_name(os.fstat(fd))
        os.rename(fresh, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(fresh, dir_fd=folder)
        raise
    return name, fd


def _is_own_temporary(folder: int, name: str) -> bool:
    """Whether `name` in `folder` is a temporary file this tool made: a regular file whose name is
    the one `create_temporary` gives its device and inode."""
    if not (name.startswith(TEMPORARY_PREFIX) and name.endswith(".tmp")):
        return False
    try:
        status = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and name == _temporary_name(status)


# Folders this process has already cleared of leftovers: each is scanned once, not once per write.
_CLEARED: set[str] = set()


def remove_leftovers(folder: int, directory: str) -> None:
    """Remove the temporary files a killed run of this tool left in `folder`, on this process's
    first write there: under the folder's lock, no other writer has one there. Only files that
    prove to be this tool's (`_is_own_temporary`) are removed."""
    if directory in _CLEARED:
        return
    _CLEARED.add(directory)
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if _is_own_temporary(folder, name):
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=folder)
