"""The library's arguments checked at its boundary (`migrate_source`, `migrate_paths`): a value of
the wrong type raises `TypeError` naming the argument and the type expected, before any work."""

from __future__ import annotations

import os
from collections.abc import Iterable


def _wrong(function: str, name: str, expected: str, value: object) -> TypeError:
    return TypeError(f"{function}: `{name}` takes {expected}, not {type(value).__name__} ({value!r:.60})")


def check_selectors(function: str, name: str, value: object) -> None:
    """`select` / `ignore`: None, a str (comma-separated), or an iterable of str."""
    if value is None or isinstance(value, str):
        return
    if isinstance(value, (bytes, bytearray)) or not isinstance(value, Iterable):
        raise _wrong(function, name, "rule codes as a str or a list of str", value)
    for item in value:
        if not isinstance(item, str):
            raise _wrong(function, name, "rule codes as a str or a list of str (an item)", item)


def check_flag(function: str, name: str, value: object) -> None:
    """A yes/no argument: a bool (a string such as "no" is refused, not taken as true)."""
    if not isinstance(value, bool):
        raise _wrong(function, name, "True or False", value)


def check_optional_str(function: str, name: str, value: object) -> None:
    if value is not None and not isinstance(value, str):
        raise _wrong(function, name, "a str or None", value)


def check_jobs(function: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _wrong(function, "jobs", "a number of processes, 0 or more (0: all cores)", value)


def paths_of(function: str, paths: object) -> list[str]:
    """The paths of a list of str or `os.PathLike` (a lone str, bytes or a number is refused)."""
    if isinstance(paths, (str, os.PathLike)):
        raise TypeError(f"{function}: `paths` takes a list of paths, not one path: pass [{paths!r}]")
    if isinstance(paths, (bytes, bytearray)) or not isinstance(paths, Iterable):
        raise _wrong(function, "paths", "a list of paths (str or os.PathLike)", paths)
    found = []
    for path in paths:
        text = os.fspath(path) if isinstance(path, os.PathLike) else path
        if not isinstance(text, str):
            raise _wrong(function, "paths", "paths as str or os.PathLike of str (an item)", path)
        found.append(text)
    return found
