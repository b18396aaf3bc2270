"""`per-file-ignores` (as ruff's): the rules and notes a config leaves out for the files its globs
match. A glob is gitignore-style, relative to the folder of the pyproject.toml it is written in
(`tests/*`, `**/legacy/*.py`; without a `/`, `*_test.py` matches a file's name in any folder); a
glob with `!` in front applies to the files it does not match. A file's selectors are those of
every entry that applies to it, in the file's order."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import PurePath

from tf24migrate.run.globs import compile_globs


class PerFileIgnores:
    """The entries of one config (`Config.per_file_ignores`), their globs relative to `root`."""

    def __init__(self, root: str, entries: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        self.root = os.path.abspath(root)
        self.entries = [
            (glob.startswith("!"), compile_globs([glob.removeprefix("!")]), selectors)
            for glob, selectors in entries
        ]

    def selectors(self, path: str) -> tuple[str, ...]:
        """The rules and notes (as selectors) left out for the file `path`."""
        relative = os.path.relpath(os.path.abspath(path), self.root)
        if relative == os.pardir or relative.startswith(os.pardir + os.sep):
            relative = os.path.basename(path)  # outside the config's folder: its name alone
        name = PurePath(relative).as_posix()
        left_out = [
            selector
            for negated, matcher, selectors in self.entries
            if matcher.match_file(name) != negated
            for selector in selectors
        ]
        return tuple(dict.fromkeys(left_out))
