"""The server's and its worker's memory: each big block (a document's text, its JSON, a job sent to
the worker and its outcome) taken from the system on its own and given back when freed.

glibc serves a block of at least its mmap threshold (128 KB) from pages of its own, but raises the
threshold to the size of each such block freed, up to 32 MB: after the first 5 MB document, every
later copy of a big text is carved from the heap, whose freed middle is never given back. On a
5 MB module (checked, checked again with unsafe fixes, a code action over the whole file), the
server and its worker grew by 67 MB (13.5x the text) with the moving threshold, 46 MB (9.3x) with
the threshold kept at 128 KB (and the worker's free pages given back after a big job: `give_back`).
A user's own `MALLOC_MMAP_THRESHOLD_` wins; elsewhere than glibc,
nothing changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import os

_M_MMAP_THRESHOLD = -3  # mallopt's parameter, as glibc's malloc.h numbers it
THRESHOLD = 128 * 1024  # glibc's default, kept fixed


def keep_big_blocks_apart() -> bool:
    """Keep glibc's mmap threshold at `THRESHOLD` in this process; whether it was set."""
    if "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(_M_MMAP_THRESHOLD, THRESHOLD))


def give_back() -> None:
    """Give the heap's free pages back to the system (glibc's `malloc_trim`): after a big job, the
    worker holds no more than it did before it (a 5 MB module's check left it 15 MB bigger, which the
    next check of it added to; about 2 ms)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def _glibc() -> ctypes.CDLL | None:
    with contextlib.suppress(OSError, AttributeError, ValueError):
        if os.confstr("CS_GNU_LIBC_VERSION"):  # glibc's (None, or ValueError, elsewhere)
            return ctypes.CDLL(None)
    return None
