"""`[tool.tf24migrate]` in pyproject.toml: found from each path upwards (up to the project's
root, the folder holding `.git`), checked strictly; `cli.groups` runs each path with its own.

The keys are those of the command line: `select`, `extend-select`, `ignore`, `exclude`, `extend-exclude`,
`unsafe-fixes`, `force-exclude`, `respect-gitignore` (false: as `--no-ignore`), `jobs`,
`target-version`, `cache-dir` (relative to the file's folder);
and, as ruff's, `per-file-ignores` (a table from a gitignore-style glob, relative to the file's
folder, `!` in front for the files it does not match, to the rules and notes left out for those
files: `run.per_file_ignores`). The command line overrides each one it sets. An unknown key, or a value
of the wrong type, is an error that names the key and the file.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from tf24migrate.run.config_error import ConfigError
from tf24migrate.run.files import read_regular_file


@dataclass(frozen=True)
class Config:
    """The settings read from pyproject.toml; None means "not set there"."""

    path: str | None = None  # the pyproject.toml they came from
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] | None = None
    unsafe_fixes: bool | None = None
    force_exclude: bool | None = None
    respect_gitignore: bool | None = None  # false: as --no-ignore (ruff's key)
    jobs: int | None = None
    target_version: str | None = None  # "X.Y", checked
    cache_dir: str | None = None  # absolute, or relative to the current folder
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, selectors), in the file's order

    @property
    def root(self) -> str:
        """The folder that `exclude` globs are relative to: pyproject.toml's, else the current one."""
        return os.path.dirname(self.path) if self.path else "."


_LISTS = ("select", "extend-select", "ignore", "exclude", "extend-exclude")


def find_pyproject(start: str) -> str | None:
    """The nearest pyproject.toml with a `[tool.tf24migrate]` table (or one that cannot be read:
    loading it says why), from `start` upwards; the search stops at the project's root (the
    folder holding `.git`): a pyproject.toml above the repository is not the project's."""
    folder = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                text = read_regular_file(candidate)[0]
            except OSError:
                return candidate
            if b"tool" in text and b"tf24migrate" in text and _has_table(text):
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):
            return None
        folder = parent


def _has_table(text: bytes) -> bool:
    """Whether a pyproject.toml's text has a `[tool.tf24migrate]` table (also `[tool."tf24migrate"]`,
    inline tables), or cannot be read as TOML (loading it then says why)."""
    tomllib = toml_parser()
    try:
        tool = tomllib.loads(text.decode("utf-8")).get("tool")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return True
    return not isinstance(tool, dict) or "tf24migrate" in tool


def _strings(key: str, value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: `{key}` must be a list of strings, not {value!r}")
    return tuple(value)


def toml_parser():
    """The TOML parser (`tomllib`, or `tomli` before Python 3.11), imported only when a file is read."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
    return tomllib


def load_config(path: str) -> Config:
    """Read and check `[tool.tf24migrate]` of the pyproject.toml at `path`."""
    tomllib = toml_parser()
    try:
        document = tomllib.loads(read_regular_file(path)[0].decode("utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}; fix the file to run tf24migrate") from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {error.start}): TOML files are UTF-8; re-save it as UTF-8"
        ) from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deep to read as TOML; flatten its arrays or tables") from None
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table ([tool.tf24migrate]), not {type(tool).__name__}")
    table = tool.get("tf24migrate", {})
    where = f"{path}: [tool.tf24migrate]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    known = {
        *_LISTS,
        "unsafe-fixes",
        "force-exclude",
        "respect-gitignore",
        "jobs",
        "target-version",
        "cache-dir",
        "per-file-ignores",
    }
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; the keys are {', '.join(sorted(known))}")
    values: dict[str, Any] = {
        key.replace("-", "_"): _strings(key, table[key], where) for key in _LISTS if key in table
    }
    for key in ("unsafe-fixes", "force-exclude", "respect-gitignore"):
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(f"{where}: `{key}` must be true or false")
            values[key.replace("-", "_")] = table[key]
    if "jobs" in table:
        jobs = table["jobs"]
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
            raise ConfigError(
                f"{where}: `jobs` must be 0 (one worker process per core) or a positive whole number "
                f"(that many worker processes; 1: none), not {jobs!r}"
            )
        values["jobs"] = jobs
    if "target-version" in table:
        from tf24migrate.model.target import TargetVersionError, parse_version

        if isinstance(table["target-version"], int | float) and not isinstance(table["target-version"], bool):
            raise ConfigError(
                f'{where}: `target-version` must be a string, "X.Y" in quotes (such as "2.3"): '
                f"a TOML number such as 2.10 would read as 2.1"
            )

        try:
            parse_version(table["target-version"], f"{where}: `target-version`")
        except TargetVersionError as error:
            raise ConfigError(str(error)) from None
        values["target_version"] = table["target-version"]
    if "cache-dir" in table:
        folder = table["cache-dir"]
        if not isinstance(folder, str) or not folder or "\0" in folder:
            raise ConfigError(f"{where}: `cache-dir` must be a folder's path as a string, not {folder!r}")
        values["cache_dir"] = os.path.join(os.path.dirname(path), os.path.expanduser(folder))
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], where)
    return Config(path=path, **values)


def _per_file_ignores(table: object, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`per-file-ignores` checked: each glob valid, each selector a rule's or a note's."""
    from tf24migrate.catalogue.selection import RuleSelection, UnknownRuleError
    from tf24migrate.run.globs import glob_problem

    key = f"{where} `per-file-ignores`"
    if not isinstance(table, dict):
        raise ConfigError(f'{key} must be a table of globs to rules, such as {{"tests/*" = ["TF24101"]}}')
    entries = []
    for glob, selectors in table.items():
        problem = glob_problem(glob.removeprefix("!")) if glob.strip("!") else "an empty pattern"
        if problem is not None:
            raise ConfigError(f"{key}: {glob!r}: {problem}")
        codes = _strings(f"per-file-ignores.{glob!r}", selectors, where)
        try:
            RuleSelection(None, codes).check()
        except UnknownRuleError as error:
            raise ConfigError(f"{key}: {glob!r}: {error}") from None
        entries.append((glob, codes))
    return tuple(entries)
