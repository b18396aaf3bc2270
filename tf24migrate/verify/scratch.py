"""The scratch copies `verify` runs the project in, and the migration of the "after" copy.

Both copies live in one temporary folder (`Scratch`), removed when the run ends, however it ends;
the project itself is only read. The "after" copy is migrated as the command would migrate the
project: the same files (those the group's filter keeps under the project), the same settings
(`cli.groups`: the command line over the project's pyproject.toml), through the same engine
(`run.migrate.migrate_files`), written in the copy.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tf24migrate.cli.groups import Group, by_project
from tf24migrate.model.findings import Status
from tf24migrate.run.discovery import iter_source_files
from tf24migrate.run.migrate import migrate_files
from tf24migrate.sources.kinds import SUFFIXES

# Not copied: version control, environments and caches (no check needs them, and they are large).
NOT_COPIED = (
    ".git",
    ".hg",
    ".svn",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    "__pycache__",
    ".tf24migrate_cache",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
)


class Scratch:
    """A temporary folder holding `before/NAME` and `after/NAME` (copies of the project NAME) and
    `logs/`; removed on leaving the block."""

    def __init__(self, project: str) -> None:
        self.project = os.path.abspath(project)
        self.name = os.path.basename(self.project.rstrip(os.sep)) or "project"
        self.folder = Path(tempfile.mkdtemp(prefix="tf24migrate-verify-"))
        self.logs = self.folder / "logs"

    def root(self, side: str) -> Path:
        """Where the copy of the project for `side` (`before` or `after`) is, once made."""
        return self.folder / side / self.name

    def copy(self, side: str) -> Path:
        """The copy of the project for `side` (`before` or `after`), made now."""
        destination = self.root(side)
        shutil.copytree(self.project, destination, symlinks=True, ignore=shutil.ignore_patterns(*NOT_COPIED))
        return destination

    def __enter__(self) -> Scratch:
        self.logs.mkdir()
        return self

    def __exit__(self, *exc_info: object) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(frozen=True)
class Located:
    """A finding of the migration, its lines those of the migrated copy."""

    code: str
    message: str
    line: int
    end_line: int
    applied: bool
    source_line: int  # where it is in the project as written (the "before" copy)
    source_end_line: int

    def json(self) -> dict:
        return {"code": self.code, "message": self.message, "line": self.line, "fixed": self.applied}


@dataclass
class Migration:
    """What the migration did in the copy, by path relative to the project."""

    changed: list[str] = field(default_factory=list)
    findings: dict[str, list[Located]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    def on_line(self, path: str, line: int, *, migrated: bool = True) -> list[Located]:
        """The findings whose lines hold `line` of `path`: a line of the migrated copy, or with
        `migrated` false, of the project as written."""
        return [
            f
            for f in self.findings.get(path, ())
            if (f.line <= line <= f.end_line if migrated else f.source_line <= line <= f.source_end_line)
        ]

    @property
    def finding_count(self) -> int:
        return sum(len(found) for found in self.findings.values())


def migrate_copy(group: Group, copy: Path) -> Migration:
    """Migrate, in `copy`, the files the command would migrate in the project `group.paths[0]`,
    each with the settings the command would give it (its own nearest project's target when the
    target comes from metadata: `cli.groups.by_project`)."""
    project = group.paths[0]
    files = list(iter_source_files(group.paths, SUFFIXES, group.path_filter))
    files = [
        path for path in files if (copy / os.path.relpath(path, project)).is_file()
    ]  # not a cache, a venv
    migration = Migration()
    for part, part_files in zip(*by_project([group], [files]), strict=True):
        _migrate_part(part, [os.path.relpath(path, project) for path in part_files], copy, migration)
    return migration


def _migrate_part(group: Group, relative: list[str], copy: Path, migration: Migration) -> None:
    """Migrate the files `relative` (to the project) in `copy` with `group`'s settings."""
    results = migrate_files(
        [str(copy / path) for path in relative], group.settings, write=True, jobs=group.jobs
    )
    for path, result in zip(relative, results, strict=True):
        if result.status is Status.FAILED:
            migration.failed[path] = result.error or "failed"
            continue
        if result.changed:
            migration.changed.append(path)
        if result.findings:
            mapped = _line_map(result.source or "", result.code or "")
            migration.findings[path] = [
                Located(
                    f.code,
                    f.message,
                    mapped(f.line),
                    max(mapped(f.line), mapped(f.end_line)),
                    f.applied,
                    f.line,
                    f.end_line,
                )
                for f in result.findings
                if f.cell is None
            ]


def _line_map(source: str, code: str):
    """A function from a line of `source` to the line of `code` it became (the first line of a
    rewritten block for a line inside one)."""
    old, new = source.splitlines(), code.splitlines()
    if old == new:
        return lambda line: line
    blocks = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()

    def mapped(line: int) -> int:
        index = line - 1
        for tag, i1, i2, j1, j2 in blocks:
            if i1 <= index < i2 or i1 == i2 == index:
                if tag == "equal":
                    return j1 + index - i1 + 1
                return min(j1 + index - i1, max(j2 - 1, j1)) + 1
        return max(len(new), 1)

    return mapped
