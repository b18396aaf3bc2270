"""The cache's folder: used only if it is this tool's own (see `claim_folder`), and written into
atomically (`write_atomically`)."""

from __future__ import annotations

import contextlib
import os
import re
import stat

from tf24migrate.run.files import read_regular_file

TEMPORARY_PREFIX = ".tmp-"  # a file being written in the cache's folder


class CacheFolderRefused(OSError):
    """A cache folder that is not this tool's to use; the message says why and what to do."""


MARKER = "CACHEDIR.TAG"  # the Cache Directory Tagging Specification's name and signature
_MARKER_TEXT = (
    b"Signature: 8a477f597d28d172789f06886806bc55\n"
    b"# This file is a cache directory tag created by tf24migrate: its result cache.\n"
)
_GITIGNORE = b"# Created by tf24migrate: its result cache.\n*\n"
_OWN_NAMES = re.compile(r"\.gitignore|results|index-[0-9a-f]+|\.tmp-.*")


def claim_folder(folder: str) -> None:
    """Make sure `folder` is this tool's cache folder, creating it if missing: a real folder (not a
    symlink, as git and ruff treat theirs) owned by the user, empty or already holding the tool's
    marker (`CACHEDIR.TAG`, written with a `.gitignore` of `*` into a folder that holds nothing
    else). A folder of the previous cache format (its `.gitignore`, `results`, indexes) gets the
    marker. Anything else raises `CacheFolderRefused`, and nothing is written there."""
    try:
        status = os.lstat(folder)
    except FileNotFoundError:
        parent = os.path.dirname(os.path.abspath(folder))
        os.makedirs(parent, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder)
        status = os.lstat(folder)
    if stat.S_ISLNK(status.st_mode):
        raise CacheFolderRefused(
            f"{folder} is a symlink; the cache is kept only in a real folder: remove the link, or "
            "name another folder with --cache-dir"
        )
    if not stat.S_ISDIR(status.st_mode):
        raise CacheFolderRefused(f"{folder} is not a folder: name a folder with --cache-dir")
    if hasattr(os, "geteuid") and status.st_uid != os.geteuid():
        raise CacheFolderRefused(f"{folder} belongs to another user: name a folder of yours with --cache-dir")
    names = os.listdir(folder)
    if MARKER in names:
        try:
            marker = read_regular_file(os.path.join(folder, MARKER), follow_symlinks=False)[0]
        except OSError:
            marker = b""
        if marker == _MARKER_TEXT:
            return
    elif not names or _is_previous_format(folder, names):
        if ".gitignore" not in names:
            write_atomically(os.path.join(folder, ".gitignore"), _GITIGNORE)
        write_atomically(os.path.join(folder, MARKER), _MARKER_TEXT)
        return
    raise CacheFolderRefused(
        f"{folder} holds files that are not tf24migrate's cache; nothing was written there: name an "
        "empty or new folder with --cache-dir (or TF24MIGRATE_CACHE_DIR)"
    )


def _is_previous_format(folder: str, names: list[str]) -> bool:
    if ".gitignore" not in names or not all(_OWN_NAMES.fullmatch(name) for name in names):
        return False
    try:
        return read_regular_file(os.path.join(folder, ".gitignore"), follow_symlinks=False)[0] == _GITIGNORE
    except OSError:
        return False


def write_atomically(path: str, data: bytes) -> None:
    """Write `data` to `path` through a temporary file renamed into place."""
    import tempfile

    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=TEMPORARY_PREFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
