"""What the command decided, shown: `--show-settings` (each group's settings, as the keys of
`[tool.tf24migrate]` in TOML, then exit), `--show-files` (the files a run would migrate, then exit)
and `-v`/`--verbose` (the same settings on stderr before each group's files, with how many files
its walk found and how many of them the result cache already holds; the session says what the
walks leave out, and why), as ruff's options of those names show its own. A folder named is shown
split by the project each file is in, as a run splits it (`groups.by_project`)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from tf24migrate.catalogue.selection import RuleSelection, selected_codes
from tf24migrate.cli.groups import Group, shown


def _toml(value: object) -> str:
    """A value as TOML writes it (strings, booleans, numbers, lists of them, tables of lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)} = {_toml(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)


def settings_lines(group: Group) -> list[str]:
    """`group`'s settings, one `key = value` line each, with a comment saying where each came from."""
    from tf24migrate.model.target import format_version
    from tf24migrate.run.config import load_config

    settings, path_filter = group.settings, group.path_filter
    rules = settings.rules
    config = load_config(group.config_path) if group.config_path else None
    config_line = (
        f"config = {_toml(shown(group.config_path))}" if group.config_path else 'config = ""  # the defaults'
    )
    lines = [
        f"# {', '.join(group.paths)}" + (f" (project {group.project_shown})" if group.project_shown else ""),
        config_line,
        f"target-version = {_toml(format_version(settings.target.version))}  # {settings.target.source}",
    ]
    if isinstance(rules, RuleSelection):
        lines.append(
            f"select = {_toml(rules.select)}" if rules.select else "select = []  # the default rules"
        )
        lines.append(f"ignore = {_toml(rules.ignore)}")
    codes = selected_codes(rules)
    lines += [
        f"# {len(codes)} rules run: {', '.join(codes)}",
        f"unsafe-fixes = {_toml(settings.unsafe_fixes)}",
        f"exclude = {_toml(path_filter.exclude)}",
        f"extend-exclude = {_toml(path_filter.extend_exclude)}  # relative to {path_filter.root}",
        f"respect-gitignore = {_toml(path_filter.respect_ignore_files)}",
        f"force-exclude = {_toml(path_filter.force_exclude)}",
        f"per-file-ignores = {_toml(dict(config.per_file_ignores) if config else {})}",
        f"jobs = {group.jobs}  # 0: one worker process per core",
        f"cache-dir = {_toml(group.cache_dir or '')}{'  # none: --no-cache' if group.cache_dir is None else ''}",
    ]
    return lines


def show_settings(groups: Sequence[Group], echo) -> None:
    """Every group's `settings_lines`, a blank line between two groups."""
    for index, group in enumerate(groups):
        if index:
            echo("")
        for line in settings_lines(group):
            echo(line)


def cached_count(group: Group, files: Sequence[str]) -> int | None:
    """How many of `files` the group's result cache holds a result for (as they are now); None
    without a cache."""
    if group.cache_dir is None or not os.path.isdir(group.cache_dir):
        return None
    from tf24migrate.run.cache import ResultCache, run_key
    from tf24migrate.run.files import digest, read_regular_file

    def held(cache: ResultCache, path: str) -> bool:
        """As the run looks a file up: by its times, else (indexed under others) by its bytes."""
        if cache.known(path, os.stat(path)) is not None:
            return True
        return cache.indexed(path) and cache.known_bytes(path, digest(read_regular_file(path)[0])) is not None

    try:
        cache = ResultCache.open(group.cache_dir, run_key(group.settings))
        return sum(1 for path in files if held(cache, path))
    except OSError:
        return None
