"""`--out DIR` (as tf_upgrade_v2's `--intree`/`--outtree`): a folder's migrated copy, the original
left untouched.

The folder is copied first, every file as it is (symlinks as symlinks, modes and times kept),
but for version control's folders (`.git`, `.hg`, `.svn`) and caches (`__pycache__`, the caches of
mypy, pytest, ruff and this tool, any folder holding a `CACHEDIR.TAG`); then each migrated file's
new code is written over its copy, through the writer every write takes (`write_source`: atomic,
its encoding, BOM and line endings kept), which checks that the copy still holds the bytes the
migration read.
"""

from __future__ import annotations

import os
import shutil

from tf24migrate.model.findings import FileResult
from tf24migrate.run.cache_folder import MARKER

# Folders not copied: version control's, and caches (which name their source files by path).
NOT_COPIED = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tf24migrate_cache",
    }
)


class OutTreeError(ValueError):
    """The folders cannot be used for `--out`; the message says why and what to do."""


def check_folders(source: str, destination: str) -> None:
    """`OutTreeError` unless `source` is a folder and `destination` a new or empty folder outside it."""
    if not os.path.isdir(source):
        raise OutTreeError(f"--out copies a folder: {source} is not one: name the folder to migrate")
    if os.path.lexists(destination) and (not os.path.isdir(destination) or os.listdir(destination)):
        raise OutTreeError(f"--out {destination}: exists and is not an empty folder: name a new folder")
    inner = os.path.relpath(os.path.realpath(destination), os.path.realpath(source))
    if inner == os.curdir or not (inner == os.pardir or inner.startswith(os.pardir + os.sep)):
        raise OutTreeError(f"--out {destination}: inside {source}, which it copies: name a folder outside it")


def _not_copied(folder: str, names: list[str]) -> set[str]:
    return {
        name
        for name in names
        if name in NOT_COPIED
        or (os.path.isdir(os.path.join(folder, name)) and os.path.isfile(os.path.join(folder, name, MARKER)))
    }


def copy_tree(source: str, destination: str) -> None:
    """Copy `source` to `destination` (an empty folder is filled), leaving out `NOT_COPIED`."""
    shutil.copytree(source, destination, symlinks=True, ignore=_not_copied, dirs_exist_ok=True)


def copy_path(path: str, source: str, destination: str) -> str:
    """Where the copy of `path` (a file under `source`) is under `destination`."""
    return os.path.join(destination, os.path.relpath(path, source))


def write_copy(result: FileResult, source: str, destination: str) -> None:
    """Write a changed result's code over the copy of its file; `ChangedOnDisk` (an `OSError`)
    when the copy no longer holds the bytes the migration read (the original changed meanwhile),
    an `OSError` when the copy is a symlink leading out of `destination` (never written through)."""
    from tf24migrate.run.files import write_source

    assert result.encoding is not None and result.digest is not None  # a changed result has them
    copy = copy_path(result.path, source, destination)
    inner = os.path.relpath(os.path.realpath(copy), os.path.realpath(destination))
    if inner == os.pardir or inner.startswith(os.pardir + os.sep):
        raise OSError(
            f"its copy is a symlink to {os.path.realpath(copy)}, outside --out: not written through"
        )
    write_source(
        copy,
        result.code or "",
        result.encoding,
        expected_digest=result.digest,
    )
