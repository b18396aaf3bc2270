"""Gitignore-style globs (excludes, ignore files): checked, and compiled by pathspec into
matchers whose cost stays bounded (repeated `**/` written once, at most `MAX_WILDCARDS` runs of
`*` in a pattern)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tf24migrate.run.config_error import ConfigError

if TYPE_CHECKING:
    import pathspec


class GlobError(ConfigError):
    """An exclude glob that is not valid, or too costly to match; the message says which and why."""


# The most wildcards (runs of `*`) a pattern may hold: each one multiplies what a backtracking
# match of a bad file name can cost (pathspec matches with Python regular expressions).
MAX_WILDCARDS = 4
_REPEATED_DOUBLE_STARS = re.compile(r"(^|/)(?:\*\*/)+(?=\*\*(?:/|$))")


def _collapsed(line: str) -> str:
    """`line` with each run of `**/` segments written once (`**/**/x` matches as `**/x` does)."""
    return _REPEATED_DOUBLE_STARS.sub(r"\1", line)


def glob_problem(line: str) -> str | None:
    """Why a gitignore-style pattern cannot be used (not valid, or too many wildcards to match
    in bounded time), or None."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error) as error:
        return f"not a valid pattern ({error})"
    wildcards = len(re.findall(r"\*+", _collapsed(line)))
    if wildcards > MAX_WILDCARDS:
        return (
            f"too many wildcards ({wildcards} runs of `*`; at most {MAX_WILDCARDS}, so that matching "
            "stays fast): split it into simpler patterns"
        )
    return None


def compile_globs(lines: Sequence[str], where: str | None = None) -> pathspec.GitIgnoreSpec:
    """The matcher of gitignore-style `lines`; with `where` (the option or file they come from),
    `GlobError` for the first that `glob_problem` refuses."""
    import pathspec

    if where is not None:
        for line in lines:
            problem = glob_problem(line)
            if problem is not None:
                raise GlobError(f"{where}: {line!r}: {problem}")
    return pathspec.GitIgnoreSpec.from_lines([_collapsed(line) for line in lines])
