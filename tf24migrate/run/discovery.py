"""Which files a run looks at: explicitly named files, and source files found under folders.

Folders are walked in sorted order (files and subfolders interleaved by name, so the paths come
out sorted whatever the parallelism later), skipping hidden folders, virtual environments, the
`exclude` / `extend-exclude` globs, and whatever the ignore files say: `.gitignore` in every
folder from the repository root down, and `.git/info/exclude`, with git's semantics (a deeper
file wins; `!` re-includes), matched by pathspec. A file named explicitly is always processed;
the same file reached twice (e.g. through a symlink) is processed once.

A symlink met in a walk is followed only to a file inside one of the named paths (as black does):
one whose target lies outside them, a broken one and a loop are skipped, each with a note through
`on_skip`, so that `--write` on a folder never rewrites a file elsewhere. A folder that cannot be
read is skipped with a note too, marked as a failure (`failed=True`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tf24migrate.model.errors import TF24MigrateError
from tf24migrate.run.files import read_regular_file
from tf24migrate.run.globs import GlobError, compile_globs, glob_problem

if TYPE_CHECKING:  # imported when a folder is walked: files named one by one need no matching
    import pathspec

SOURCE_SUFFIXES = (".py",)
# What `exclude` means when neither the command line nor pyproject.toml sets it: ruff's default
# exclusions, less the hidden folders (always skipped), and `__pycache__`. A virtual environment of
# any name is recognised by its `pyvenv.cfg` (or a conda `conda-meta/`), so a folder named `env/`
# that is not one is walked.
DEFAULT_EXCLUDE = (
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)


class MissingPathError(TF24MigrateError, FileNotFoundError):
    """A path given by the user is not a file or folder to migrate (the message says why)."""


_NOT_REGULAR = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def path_problem(path: str) -> str | None:
    """Why a path the user named cannot be migrated ("no such file or folder", "permission
    denied", "not a regular file (a FIFO)"...); None for a file or a folder."""
    try:
        mode = os.stat(path).st_mode
    except PermissionError:
        return "permission denied (a folder on its way cannot be searched): check its permissions"
    except FileNotFoundError:
        return "a broken symlink" if os.path.islink(path) else "no such file or folder"
    except OSError as error:
        return f"cannot be looked at: {error.strerror or error}"
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return None
    kind = _NOT_REGULAR.get(stat.S_IFMT(mode), "not a file or a folder")
    return f"not a regular file ({kind}): name a file or a folder"


@dataclass(frozen=True)
class PathFilter:
    """What the walk leaves out. Globs are gitignore-style and relative to `root`."""

    exclude: Sequence[str] = DEFAULT_EXCLUDE
    extend_exclude: Sequence[str] = ()
    respect_ignore_files: bool = True
    root: str = "."
    # Also leave out named paths the excludes cover (`--force-exclude`, as in ruff and black).
    force_exclude: bool = False

    def __post_init__(self) -> None:
        """`GlobError` for a glob that is not valid or too costly to match."""
        for glob in (*self.exclude, *self.extend_exclude):
            if not _is_bare_name(glob):
                problem = glob_problem(glob)
                if problem is not None:
                    raise GlobError(f"exclude glob {glob!r}: {problem}")


@dataclass(frozen=True)
class _IgnoreFile:
    """The gitignore-style patterns of one folder, matched against paths relative to it."""

    base: str
    spec: pathspec.GitIgnoreSpec

    def verdict(self, path: str, is_dir: bool) -> bool | None:
        relative = os.path.relpath(path, self.base)
        if relative.startswith(".."):
            return None
        relative = relative.replace(os.sep, "/") + ("/" if is_dir else "")
        return self.spec.check_file(relative).include


def _is_virtualenv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg")) or os.path.isdir(os.path.join(path, "conda-meta"))


def _holds_virtualenv(entries: dict[str, os.DirEntry]) -> bool:
    """`_is_virtualenv` of a folder from its listing."""
    config, conda = entries.get("pyvenv.cfg"), entries.get("conda-meta")
    return (config is not None and config.is_file()) or (conda is not None and conda.is_dir())


def _load(base: str, ignore_file: str, on_skip: OnSkip | None = None) -> list[_IgnoreFile]:
    """The patterns of one ignore file; only a regular file is read (a FIFO would block). A line
    git would ignore as invalid (a lone `\\`) is left out, as git does; so is one too costly to
    match (`glob_problem`), with a note through `on_skip`."""
    if not os.path.isfile(ignore_file):
        return []
    try:
        lines = read_regular_file(ignore_file)[0].decode("utf-8", "replace").splitlines()
    except OSError:
        return []
    kept = []
    for line in lines:
        problem = glob_problem(line)
        if problem is None:
            kept.append(line)
        elif on_skip is not None and problem.startswith("too many"):
            on_skip(ignore_file, f"pattern {line!r} left out: {problem}")
    spec = compile_globs(kept)
    return [_IgnoreFile(base, spec)] if spec.patterns else []


def _git_dir(repository: str) -> str | None:
    """The git directory of a repository, following a worktree's `.git` file to the common one."""
    dot_git = os.path.join(repository, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        first = read_regular_file(dot_git)[0].decode("utf-8", "replace").partition("\n")[0].strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    git_dir = os.path.join(repository, first[len("gitdir:") :].strip())
    try:
        common = read_regular_file(os.path.join(git_dir, "commondir"))[0].decode("utf-8", "replace")
    except OSError:
        return git_dir
    return os.path.normpath(os.path.join(git_dir, common.strip()))


def _ancestor_ignore_files(folder: str, on_skip: OnSkip | None = None) -> list[_IgnoreFile]:
    """The ignore files that apply to `folder` from above it: the repository's, outermost first."""
    folder = os.path.abspath(folder)
    chain = [folder]
    while not os.path.exists(os.path.join(chain[-1], ".git")):
        parent = os.path.dirname(chain[-1])
        if parent == chain[-1]:
            return []  # not in a repository: only the ignore files inside the walked folder count
        chain.append(parent)
    repository = chain[-1]
    ignore_files: list[_IgnoreFile] = []
    git_dir = _git_dir(repository)
    if git_dir:
        ignore_files += _load(repository, os.path.join(git_dir, "info", "exclude"), on_skip)
    for ancestor in reversed(chain[1:]):
        ignore_files += _load(ancestor, os.path.join(ancestor, ".gitignore"), on_skip)
    return ignore_files


def _is_bare_name(glob: str) -> bool:
    """Whether a gitignore-style glob is a plain name, matching any file or folder of that name."""
    return bool(glob) and not any(char in glob for char in "/*?[]!\\# ") and glob not in (".", "..")


# Told about each path a walk leaves out for a reason the user should hear: (path, why).
OnSkip = Callable[..., None]  # `(path, why)`, with `failed=True` for a folder that cannot be read


def _ignore_skip(path: str, why: str, failed: bool = False) -> None:
    pass


class _Walker:
    def __init__(
        self, suffixes: tuple[str, ...], path_filter: PathFilter, roots: Sequence[str], on_skip: OnSkip
    ) -> None:
        self.suffixes = suffixes
        self.on_leave: OnSkip | None = None  # hears of each folder or source file left out, and why
        self.path_filter = path_filter
        self.roots = [os.path.realpath(root) for root in roots]
        self.on_skip = on_skip
        self.links: set[str] = set()  # the symlinks walked to and taken
        self.root = os.path.abspath(path_filter.root)
        globs = [*path_filter.exclude, *path_filter.extend_exclude]
        # Bare names (the defaults) match a path with such a part, as in git: no pathspec needed.
        self.excluded_names = frozenset(globs) if all(map(_is_bare_name, globs)) else None
        if self.excluded_names is None:
            self.excluded = compile_globs(globs)

    def _left(self, path: str, why: str) -> None:
        if self.on_leave is not None:
            self.on_leave(path, why)

    def _is_excluded(self, path: str, name: str, is_dir: bool, base: str | None = None) -> bool:
        relative = os.path.relpath(path, base or self.root)
        if relative.startswith(".."):
            relative = name
        relative = relative.replace(os.sep, "/") + ("/" if is_dir else "")
        if self.excluded_names is not None:
            return not self.excluded_names.isdisjoint(relative.split("/"))
        return bool(self.excluded.check_file(relative).include)

    def _is_excluded_entry(self, path: str, name: str, is_dir: bool) -> bool:
        """`_is_excluded` for an entry of a walk, whose folders were all checked on the way down:
        for bare names, its own name decides."""
        if self.excluded_names is not None:
            return name in self.excluded_names
        return self._is_excluded(path, name, is_dir, self.base)

    @staticmethod
    def _is_ignored(path: str, is_dir: bool, ignore_files: list[_IgnoreFile]) -> bool:
        for ignore_file in reversed(ignore_files):  # the deepest ignore file decides first, as in git
            verdict = ignore_file.verdict(path, is_dir)
            if verdict is not None:
                return verdict
        return False

    def _is_file_to_take(self, entry: os.DirEntry) -> bool:
        """Whether a walked entry is a regular file to take: a symlink only to a file inside a
        named path (see the module docstring)."""
        if not entry.is_symlink():
            return entry.is_file(follow_symlinks=False)
        try:
            target = os.path.realpath(entry.path, strict=True)
        except OSError as error:
            loop = error.errno == errno.ELOOP
            self.on_skip(entry.path, "skipped: a symlink loop" if loop else "skipped: a broken symlink")
            return False
        if not any(target == root or target.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots):
            self.on_skip(
                entry.path,
                f"skipped: a symlink to {target}, outside the paths named (name that file to migrate it)",
            )
            return False
        return os.path.isfile(target)

    def walk_named(self, folder: str) -> Iterator[str]:
        """Walk a folder the user named. The folder itself is taken even when an ignore file or an
        exclude glob covers it: then only what is inside it (ignore files, globs relative to it)
        decides."""
        absolute = os.path.abspath(folder)
        ignore_files = (
            _ancestor_ignore_files(folder, self.on_skip) if self.path_filter.respect_ignore_files else []
        )
        if self._is_ignored(absolute, True, ignore_files):
            ignore_files = []
        name = os.path.basename(absolute)
        self.base = absolute if self._is_excluded(absolute, name, True) else self.root
        yield from self.walk(folder, ignore_files)

    def walk(self, folder: str, ignore_files: list[_IgnoreFile]) -> Iterator[str]:
        """The files to take under the folder named `folder`, depth first, with a stack of the
        folders being listed rather than recursion (a tree may be nested thousands deep)."""
        stack = [self._walk_folder(folder, ignore_files, named=True)]
        while stack:
            item = next(stack[-1], None)
            if item is None:
                stack.pop()
            elif isinstance(item, tuple):  # a subfolder to walk first
                stack.append(self._walk_folder(*item, named=False))
            else:
                yield item

    def _walk_folder(
        self, folder: str, ignore_files: list[_IgnoreFile], *, named: bool
    ) -> Iterator[str | tuple[str, list[_IgnoreFile]]]:
        """The files to take in `folder`, and its subfolders to walk (as `(folder, ignore
        files)`), in order (`named`: the user named it; a folder found by the walk that holds a
        virtual environment is left out)."""
        absolute = os.path.abspath(folder)
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            if not named and _is_virtualenv(folder):
                return
            self.on_skip(folder, f"skipped: cannot read this folder ({error.strerror or error})", failed=True)
            return
        names = {entry.name: entry for entry in entries}  # what is known without a system call
        if not named and _holds_virtualenv(names):
            self._left(folder, "a virtual environment")
            return
        if self.path_filter.respect_ignore_files and ".gitignore" in names:
            ignore_files = ignore_files + _load(absolute, os.path.join(absolute, ".gitignore"), self.on_skip)
        prefix = _joinable(absolute)
        for entry in entries:
            is_dir = entry.is_dir(follow_symlinks=False)
            full = prefix + entry.name
            if is_dir:
                if entry.name.startswith("."):
                    self._left(entry.path, "a hidden folder")
                    continue
            elif not entry.name.endswith(self.suffixes) or not self._is_file_to_take(entry):
                continue
            if self._is_excluded_entry(full, entry.name, is_dir):
                self._left(entry.path, "excluded (exclude, extend-exclude)")
                continue
            if self._is_ignored(full, is_dir, ignore_files):
                self._left(entry.path, "ignored (.gitignore, .git/info/exclude)")
                continue
            if is_dir:
                yield entry.path, ignore_files
            else:
                if entry.is_symlink():  # known from the listing: no system call
                    self.links.add(entry.path)
                yield entry.path


def _real_path(file: str, real_folders: dict[str, str], is_link: bool | None = None) -> str:
    """`os.path.realpath(file)`, resolving each folder once (`real_folders`) rather than per file.
    `is_link` is known for a file a walk found (whether it is a symlink): its folders below the
    one named are no symlinks (a walk does not enter one), so each is its parent's, resolved."""
    if os.path.islink(file) if is_link is None else is_link:
        return os.path.realpath(file)
    folder, separator, name = file.rpartition(os.sep)  # a folder spelt two ways is resolved twice, alike
    folder = folder or separator  # `/x.py` is in the root, `x.py` in the current folder ("")
    real = real_folders.get(folder)
    if real is None:
        parent, base = os.path.split(folder)
        walked = is_link is not None and base and parent in real_folders
        real = real_folders[folder] = (
            _joinable(real_folders[parent]) + base if walked else os.path.realpath(folder or ".")
        )
    return _joinable(real) + name


def _joinable(folder: str) -> str:
    """`folder` ready for a name to be added (`os.path.join` costs a tenth of a walk's time per file)."""
    return folder if folder.endswith(os.sep) else folder + os.sep


def iter_source_files(
    paths: Iterable[str],
    suffixes: tuple[str, ...] = SOURCE_SUFFIXES,
    path_filter: PathFilter | None = None,
    on_skip: OnSkip = _ignore_skip,
    *,
    roots: Sequence[str] | None = None,
    on_leave: OnSkip | None = None,
) -> Iterator[str]:
    """Every file named in `paths`, and every file with one of `suffixes` under the folders named
    that `path_filter` keeps; sorted within each folder. A named file or folder is always taken,
    even if ignored or excluded, unless `path_filter.force_exclude`: then the excludes apply to it
    too. Raises `MissingPathError` for a path that does not exist.
    `on_skip` hears of each symlink left out (see the module docstring); a symlink is followed
    only to a file inside `roots` (default: `paths`). `on_leave` (`--verbose`) hears of each
    folder and source file a walk leaves out (excluded, ignored, hidden, a virtual environment)."""
    paths = list(paths)
    roots = paths if roots is None else roots
    walker = None
    seen: set[str] = set()
    real_folders: dict[str, str] = {}
    for path in paths:
        if path_filter is not None and path_filter.force_exclude:
            walker = walker or _Walker(suffixes, path_filter, roots, on_skip)
            name = os.path.basename(os.path.abspath(path))
            if walker._is_excluded(os.path.abspath(path), name, os.path.isdir(path)):
                continue
        links = None  # the symlinks among the files found, when a walk found them
        if os.path.isdir(path):
            walker = walker or _Walker(suffixes, path_filter or PathFilter(), roots, on_skip)
            walker.on_leave = on_leave
            found: Iterable[str] = walker.walk_named(path)
            links = walker.links
        elif os.path.isfile(path):
            found = (path,)
        else:
            raise MissingPathError(f"{path}: {path_problem(path) or 'no such file or folder'}")
        for file in found:
            real = _real_path(file, real_folders, None if links is None else file in links)
            if real not in seen:
                seen.add(real)
                yield file
