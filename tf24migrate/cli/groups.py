"""Which settings apply to which paths: each path named is run with its own nearest pyproject.toml
(`run.config.find_pyproject`), merged with the command line (which wins over every config).

Paths that end up with the same config and the same target form one `Group`; a run is one group
after the other, in the order of each group's first path on the command line (a group's paths
keep their order). The target is part of the key because without `--target-version` or
`target-version` it is read from the metadata of the project each path belongs to; and since
each file belongs to its own nearest project (as ruff and black find their configuration), a
group's files found under a folder named are split by project once found (`by_project`): a
subproject's `requirements.txt` sets its files' target whatever folder is named.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from tf24migrate.catalogue.selection import RuleSelection, UnknownRuleError
from tf24migrate.catalogue.settings import Settings
from tf24migrate.cli.output import printable, target_json
from tf24migrate.model.target import Target, target_of
from tf24migrate.run.config import Config, find_pyproject, load_config
from tf24migrate.run.discovery import DEFAULT_EXCLUDE, PathFilter


@dataclass(frozen=True)
class Options:
    """What the command line says about the settings a config may also set; None: not said."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    target_version: str | None = None
    unsafe_fixes: bool | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] | None = None
    no_ignore: bool = False
    force_exclude: bool | None = None
    jobs: int | None = None
    cache_dir: str | None = None
    no_cache: bool = False


@dataclass(frozen=True)
class Group:
    """Paths run with the same settings: those of their config, the command line's first."""

    paths: tuple[str, ...]
    config_path: str | None  # the pyproject.toml the settings came from; None: the defaults
    settings: Settings
    path_filter: PathFilter
    jobs: int
    cache_dir: str | None  # None: no cache
    # The folder whose project metadata set the target (None: no project found); `per_project`:
    # the target is read from each file's own project (no `--target-version`, no `target-version`).
    project: str | None = None
    per_project: bool = False

    @property
    def target(self) -> Target:
        return self.settings.target

    @property
    def project_shown(self) -> str | None:
        """The project folder the target was read from, as the user would name it; None: none was
        (no project metadata found, or the target named by the flag or the config)."""
        return shown(self.project) if self.per_project else None

    def json(self) -> dict:
        return {
            "path": shown(self.config_path),
            "project": self.project_shown,
            "target": target_json(self.target),
        }

    @property
    def describe(self) -> str:
        config = (
            printable(shown(self.config_path)) if self.config_path else "the defaults (no pyproject.toml)"
        )
        return f"{config} with target {self.target.describe}"


@overload
def shown(path: str) -> str: ...
@overload
def shown(path: str | None) -> str | None: ...
def shown(path: str | None) -> str | None:
    return os.path.relpath(path) if path else None


def groups_of(paths: Sequence[str], options: Options) -> list[Group]:
    """The groups `paths` (files or folders; for a source on stdin, the name it is given) fall
    into. Raises `ConfigError`, `UnknownRuleError` or `TargetVersionError` for a config, or an
    option, that cannot be used."""
    configs: dict[str | None, Config] = {}
    from tf24migrate.run.project_metadata import Projects

    projects = Projects()
    by_folder: dict[str, tuple[str | None, Target, str | None, bool]] = {}
    keyed: dict[tuple[str | None, Target, str | None, bool], list[str]] = {}
    for path in paths:
        folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
        if folder not in by_folder:
            found = find_pyproject(folder)
            if found not in configs:
                configs[found] = _checked(load_config(found), options) if found else Config()
            named = _named_target(options.target_version, configs[found])
            if named is not None:
                by_folder[folder] = (found, named, None, False)
            else:
                project = projects.folder(folder)
                by_folder[folder] = (found, projects.target(project, folder), project, True)
        key = by_folder[folder]
        own = projects.own_target(path) if key[3] and not os.path.isdir(path) else None
        keyed.setdefault(key if own is None else (key[0], own, key[2], False), []).append(path)
    return [
        _group(tuple(group_paths), configs[found], target, options, project, per_project)
        for (found, target, project, per_project), group_paths in keyed.items()
    ]


def by_project(groups: Sequence[Group], files: Sequence[list[str]]) -> tuple[list[Group], list[list[str]]]:
    """The groups and their files (`files[i]`: `groups[i]`'s), with each group whose target is
    read from project metadata split by the project each file belongs to: the nearest folder
    above the file holding metadata, whatever folder was named; a notebook that installs a
    TensorFlow release (`!pip install tensorflow==2.3.0`) has that target, what it runs on. A part
    keeps its group's config and options, with its own target; parts come in the order of their
    first file."""
    from tf24migrate.run.project_metadata import Projects

    projects = Projects()
    split_groups: list[Group] = []
    split_files: list[list[str]] = []
    for group, group_files in zip(groups, files, strict=True):
        parts: dict[tuple[str | None, Target | None], list[str]] = {}
        for file in group_files if group.per_project else ():
            parts.setdefault((projects.folder(file), projects.own_target(file)), []).append(file)
        if not parts or list(parts) == [(group.project, None)]:
            split_groups.append(group)
            split_files.append(group_files)
            continue
        for (project, own), part in parts.items():
            target = own or (group.target if project == group.project else projects.target(project, part[0]))
            settings = dataclasses.replace(group.settings, target=target)
            read_from = project if own is None else part[0]  # the notebook, shown as its project
            split_groups.append(dataclasses.replace(group, settings=settings, project=read_from))
            split_files.append(part)
    return split_groups, split_files


def _group(
    paths: tuple[str, ...],
    config: Config,
    target: Target,
    options: Options,
    project: str | None = None,
    per_project: bool = False,
) -> Group:
    settings = Settings.selected(
        _selected(options, config),
        _first_set(options.ignore, config.ignore, None),
        target=target,
        unsafe_fixes=_first_set(options.unsafe_fixes, config.unsafe_fixes, False),
    )
    exclude, extend = options.exclude, options.extend_exclude
    return Group(
        paths=paths,
        config_path=config.path,
        settings=settings,
        path_filter=PathFilter(
            exclude=_first_set(exclude, config.exclude, DEFAULT_EXCLUDE),
            extend_exclude=_first_set(extend, config.extend_exclude, ()),
            respect_ignore_files=not options.no_ignore and config.respect_gitignore is not False,
            force_exclude=_first_set(options.force_exclude, config.force_exclude, False),
            root="." if exclude is not None or extend is not None else config.root,
        ),
        jobs=_first_set(options.jobs, config.jobs, 0),
        cache_dir=None if options.no_cache else _cache_folder(options.cache_dir, config, paths[0]),
        project=project,
        per_project=per_project,
    )


def _selected(options: Options, config: Config) -> tuple[str, ...] | None:
    """The selectors of the rules to run: the command line's `--select`, else the config's `select`,
    with `extend-select` (the config's unless `--select` is given, and the command line's) added; a
    selection only extended is the default rules and those. None: the default rules."""
    select = _first_set(options.select, config.select, None)
    extend = (*(config.extend_select or () if options.select is None else ()), *(options.extend_select or ()))
    if not extend:
        return select
    if select is None:
        from tf24migrate.catalogue.entries import entries

        select = tuple(entry.code for entry in entries() if entry.default)
    return (*select, *extend)


def _first_set(*values):
    """The first value that is not None: the command line's, then pyproject.toml's, then the default."""
    return next((value for value in values if value is not None), None)


def _named_target(flag: str | None, config: Config) -> Target | None:
    """The target the flag or the config names; None: neither does (it is read from the
    metadata of each file's project)."""
    if flag is not None:
        return target_of(flag, "--target-version")
    if config.target_version is not None:
        return target_of(config.target_version, f"{shown(config.path)} [tool.tf24migrate]")
    return None


def _checked(config: Config, options: Options) -> Config:
    """`config`, its selectors that the command line does not override checked; an unknown one
    names the file and the key."""
    for key, selection in (
        ("select", None if options.select is not None else RuleSelection(config.select)),
        ("extend-select", None if options.select is not None else RuleSelection(config.extend_select)),
        ("ignore", None if options.ignore is not None else RuleSelection(None, config.ignore)),
    ):
        if selection is None:
            continue
        try:
            selection.check()
        except UnknownRuleError as error:
            raise UnknownRuleError(f"{shown(config.path)}: [tool.tf24migrate] `{key}`: {error}") from None
    return config


def _cache_folder(flag: str | None, config: Config, first: str) -> str:
    """The result cache's folder: the flag's, the environment's, pyproject.toml's, or the default."""
    from tf24migrate.run.cache import ENVIRONMENT_VARIABLE, default_folder

    for folder in (flag, os.environ.get(ENVIRONMENT_VARIABLE) or None, config.cache_dir):
        if folder is not None:
            return os.path.expanduser(folder)
    return default_folder(first, config.path)


def describe(groups: Sequence[Group]) -> str:
    """What the summary line says of the settings: `; target T; config C` for one group (`config`
    left out without a pyproject.toml); for several with one config, each project and its target
    (`; 2 projects: . with target T, sub with target U; config C`); else `; N configs: C with
    target T, ...`."""
    configs = {group.config_path for group in groups}
    config = f"; config {printable(shown(groups[0].config_path))}" if groups[0].config_path else ""
    if len(groups) == 1:
        return f"; target {groups[0].target.describe}{config}"
    if len(configs) == 1:
        named = dict.fromkeys(
            f"{_project_name(group)} with target {group.target.describe}" for group in groups
        )
        return f"; {len(named)} projects: " + ", ".join(named) + config
    return f"; {len(groups)} configs: " + ", ".join(group.describe for group in groups)


def _project_name(group: Group) -> str:
    return printable(group.project_shown or "(no project)")


def with_per_file_ignores(
    groups: Sequence[Group], files: list[list[str]]
) -> Iterator[tuple[Group, list[str]]]:
    """Each group with its files; where its config has `per-file-ignores`, the files an entry
    applies to are a group of their own, with those rules and notes left out (after the group's
    other files, in their order; such groups run with one selection each)."""
    from tf24migrate.run.per_file_ignores import PerFileIgnores

    for group, group_files in zip(groups, files, strict=True):
        config = load_config(group.config_path) if group.config_path and group_files else None
        if config is None or not config.per_file_ignores:
            yield group, group_files
            continue
        ignores = PerFileIgnores(config.root, config.per_file_ignores)
        by_selectors: dict[tuple[str, ...], list[str]] = {(): []}
        for file in group_files:
            by_selectors.setdefault(ignores.selectors(file), []).append(file)
        for selectors, selected_files in by_selectors.items():
            if selected_files:
                yield leaving_out(group, selectors), selected_files


def file_group(group: Group, path: str) -> Group:
    """`group` as it applies to the one file `path` (its `per-file-ignores` left out)."""
    ((group, _),) = with_per_file_ignores([group], [[path]])
    return group


def leaving_out(group: Group, selectors: tuple[str, ...]) -> Group:
    """`group` with the rules and notes of `selectors` left out too."""
    if not selectors:
        return group
    rules, settings = group.settings.rules, group.settings
    assert isinstance(rules, RuleSelection)  # the command's settings select by selectors
    selected = Settings.selected(
        rules.select or None,
        (*rules.ignore, *selectors),
        target=settings.target,
        unsafe_fixes=settings.unsafe_fixes,
    )
    return dataclasses.replace(group, settings=selected)
