"""The lock a write takes on its folder, so that writers in one folder take turns: waited for in
short steps, for `LOCK_TIMEOUT` at most, naming the process that holds it."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator


class FolderLocked(OSError):
    """Another process held a folder's write lock for longer than `LOCK_TIMEOUT`."""


LOCK_TIMEOUT = 30.0  # seconds a write waits for another process's lock on its folder


@contextlib.contextmanager
def folder_lock(folder: int, directory: str, interrupted: Callable[[], bool]) -> Iterator[None]:
    """An exclusive lock on the folder open as `folder`, held by one writer at a time (a no-op
    where unsupported). Waited for in short steps (Ctrl-C stops the wait) for `LOCK_TIMEOUT` at
    most; then `FolderLocked`, naming the process that holds it where the system tells; at once
    when `interrupted()` (a Ctrl-C held back meanwhile)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Linux
        yield
        return
    import time

    fd = os.dup(folder)  # a lock of its own, released when this descriptor closes
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if interrupted():  # given up: the interruption is delivered as the write's block ends
                    raise FolderLocked(f"interrupted while waiting for the lock of {directory}") from None
                if time.monotonic() > deadline:
                    raise FolderLocked(
                        f"the folder {directory} is locked by {_lock_holder(fd)} "
                        f"(waited {LOCK_TIMEOUT:.0f} s): let it finish, or end it, and run again"
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # releases the lock


def _lock_holder(fd: int) -> str:
    """Who holds a lock on the file open as `fd`: "process N (name)" from /proc/locks, else
    "another process"."""
    status = os.fstat(fd)
    device = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) > 5 and fields[1] in ("FLOCK", "POSIX", "OFDLCK") and fields[5] == device:
                    pid = fields[4]
                    if pid == "-1" or pid == str(os.getpid()):
                        continue
                    try:
                        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as comm:
                            return f"process {pid} ({comm.read().strip()})"
                    except OSError:
                        return f"process {pid}"
    except OSError:
        pass
    return "another process"
