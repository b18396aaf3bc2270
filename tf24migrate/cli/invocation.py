"""What the command line asked for, settled: the mode, the output format, the groups of paths
with their settings, and what decides the exit code. `command` builds it, `session` runs it."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tf24migrate.cli.groups import Group


class Mode(enum.Enum):
    DIFF = "diff"  # preview: the diffs, nothing written (also `--check --diff`)
    CHECK = "check"  # the files that would change, nothing written
    WRITE = "write"  # the changes written (with `-` alone: the migrated source to stdout)
    INTERACTIVE = "interactive"  # each change asked about, the accepted ones written


class OutputFormat(enum.Enum):
    TEXT = "text"
    JSON = "json"
    GITHUB = "github"
    SARIF = "sarif"
    RDJSON = "rdjson"


@dataclass(frozen=True)
class Run:
    """What the command line asked for, settled (pyproject.toml merged in)."""

    mode: Mode
    groups: Sequence[Group]  # the paths, each group with its settings (`cli.groups`); stdin: one
    output_format: OutputFormat
    color: bool
    quiet: bool
    statistics: bool  # only the table of sites per rule, not each finding
    exit_zero: bool = False  # exit 0 when something is due (still 2 when a file failed)
    exit_non_zero_on_fix: bool = False  # exit 1 when a fix was written, even with nothing left
    paths_missing: int = 0  # paths named that do not exist, folders unreadable (left out: exit 2)
    stdin: bool = False  # one source from stdin: its migrated source, or its diff, to stdout
    project_root: str | None = None  # review formats name files from here (`cli.project_root`)
    add_noqa: bool = False  # `--add-noqa`: a suppression comment on each line with a finding left
    # `--since --only-changed-lines`: by absolute path, the lines whose findings are reported
    # (None: every line, an untracked file); files not there are reported whole.
    changed_lines: Mapping[str, frozenset[int] | None] | None = None
    report: str | None = None  # `--report FILE`: the migration report written there (`cli.report`)
    out: tuple[str, str] | None = None  # `--out DIR`: (the folder migrated, DIR), copies written there
    verbose: bool = False  # `-v`: each group's settings, and what its walk found, on stderr
    diff_asked: bool = False  # `--diff` given: with `--output-format github`, the diffs printed too

    @property
    def writes(self) -> bool:
        return self.mode in (Mode.WRITE, Mode.INTERACTIVE)

    @property
    def findings_to_stderr(self) -> bool:
        """Whether finding lines go to stderr: stdout carries the diff, or the source."""
        return self.mode is Mode.DIFF or self.stdin
