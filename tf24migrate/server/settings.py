"""What configures the server: the editor's settings (the command line's options, given as
`initializationOptions` or the `tf24migrate` section of the client's configuration) on top of the
project's files, which `cli.groups` reads per folder as the command does, and which files those are
(watched, so that a change to one reloads the configuration)."""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tf24migrate.cli.groups import Options

# The files the settings of a path are read from: `[tool.tf24migrate]` and the project's metadata
# (the target version, `run.project_metadata`).
CONFIG_FILES = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "requirements*.txt",
    "environment.yml",
    "environment.yaml",
)
WATCHED_GLOBS = tuple(f"**/{name}" for name in CONFIG_FILES)
DEFAULT_TIMEOUT = 10.0  # seconds a document's migration may take
MAX_TIMEOUT = 86400.0  # a day: any longer is no limit, and more than a clock can wait for


def is_config_file(path: str) -> bool:
    name = os.path.basename(path)
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in CONFIG_FILES)


@dataclass(frozen=True)
class EditorSettings:
    """The editor's settings: the command line's options (None: not set, the project's files
    decide) and how long one document's migration may take."""

    select: str | None = None
    ignore: str | None = None
    target_version: str | None = None
    unsafe_fixes: bool | None = None
    timeout: float = DEFAULT_TIMEOUT

    @property
    def options(self) -> Options:
        from tf24migrate.cli.groups import Options  # the worker's: the server starts without it

        return Options(
            select=_selectors(self.select),
            ignore=_selectors(self.ignore),
            target_version=self.target_version,
            unsafe_fixes=self.unsafe_fixes,
        )


def _kebab(key: str) -> str:
    """`unsafeFixes`, `unsafe_fixes` and `unsafe-fixes` are one key."""
    return re.sub(r"(?<=[a-z])([A-Z])", r"-\1", key).replace("_", "-").lower()


def read_settings(value: object) -> tuple[EditorSettings, list[str]]:
    """The settings in the editor's `value` (a JSON object), and a sentence for each key left out
    (unknown, or of the wrong type)."""
    if value is None:
        return EditorSettings(), []
    if not isinstance(value, dict):
        return EditorSettings(), [f"the tf24migrate settings must be an object, not {value!r}"]
    found: dict[str, Any] = {}
    problems = []
    for key, item in value.items():
        name = _kebab(str(key))
        if name in ("select", "ignore"):
            if isinstance(item, list) and all(isinstance(part, str) for part in item):
                item = ",".join(item)
            if isinstance(item, str):
                found[name] = item
                continue
            problems.append(f"`{key}` must be a list of rule selectors or a string, not {item!r}")
        elif name == "target-version":
            if isinstance(item, str):
                found["target_version"] = item
                continue
            problems.append(f'`{key}` must be a version such as "2.3", not {item!r}')
        elif name == "unsafe-fixes":
            if isinstance(item, bool):
                found["unsafe_fixes"] = item
                continue
            problems.append(f"`{key}` must be true or false, not {item!r}")
        elif name == "timeout":
            if isinstance(item, int | float) and not isinstance(item, bool) and 0 < item <= MAX_TIMEOUT:
                found["timeout"] = float(item)
                continue
            problems.append(
                f"`{key}` must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}, not {item!r}"
            )
        else:
            problems.append(
                f"unknown setting `{key}`: the settings are select, ignore, target-version, "
                "unsafe-fixes and timeout"
            )
    return EditorSettings(**found), [f"tf24migrate: settings: {problem}; left out" for problem in problems]


def _selectors(text: str | None) -> tuple[str, ...] | None:
    """The editor's `select` / `ignore` setting (codes, names or prefixes, as the command line
    takes them: separated by commas or spaces) as the command line's repeated options."""
    return None if text is None else tuple(text.replace(",", " ").split())
