"""Which files a run looks at: explicitly named files, and source files found under folders."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

SOURCE_SUFFIXES = (".py",)
_SKIPPED_FOLDERS = {"__pycache__", "node_modules", "site-packages", "venv", "env", "build", "dist"}


class MissingPathError(FileNotFoundError):
    """A path given by the user does not exist."""


def _is_virtualenv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def iter_source_files(paths: Iterable[str], suffixes: tuple[str, ...] = SOURCE_SUFFIXES) -> Iterator[str]:
    """Every file named in `paths`, and every file with one of `suffixes` under the folders named,
    skipping hidden folders, virtual environments and caches; sorted within each folder."""
    for path in paths:
        if os.path.isfile(path):
            yield path
        elif os.path.isdir(path):
            for root, folders, files in os.walk(path):
                folders[:] = sorted(
                    f
                    for f in folders
                    if not f.startswith(".")
                    and f not in _SKIPPED_FOLDERS
                    and not _is_virtualenv(os.path.join(root, f))
                )
                for name in sorted(files):
                    if name.endswith(suffixes):
                        yield os.path.join(root, name)
        else:
            raise MissingPathError(f"{path}: no such file or folder")
