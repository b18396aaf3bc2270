"""The folder that review formats (GitHub annotations, SARIF, rdjson) name files from.

A pull request's annotations and suggestions attach to the diff only when they name each file
relative to the repository's root, whatever folder the command runs in (a monorepo's job runs in
a project's folder). So those formats name files from `--project-root` when given, else from the
top of the git repository the current folder is in (the nearest folder holding `.git`, a folder
or a worktree's file, found without running git), else as they were named.
"""

from __future__ import annotations

import os
from pathlib import PurePath


def project_root(flag: str | None) -> str | None:
    """The absolute root the review formats name files from: `flag`'s folder, else the git top
    level of the current folder, else None (files are named as they were given)."""
    if flag is not None:
        return os.path.abspath(flag)
    folder = os.path.abspath(".")
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def under_root(path: str, root: str) -> str | None:
    """`path` (as the run names it) relative to `root`, in `/` form; None for a name that is not a
    file's (`<stdin>`), or for a file outside the root."""
    if path.startswith("<"):
        return None
    try:
        relative = os.path.relpath(os.path.abspath(path), root)
    except ValueError:  # another drive (Windows)
        return None
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return PurePath(relative).as_posix()


def from_root(path: str, root: str | None) -> str:
    """`path` relative to `root` (`under_root`); as it is when there is no root, or it is not
    under the root."""
    return path if root is None else (under_root(path, root) or path)
