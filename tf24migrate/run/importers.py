"""Names a migration changes that other files import, and the files that import them.

A fix that renames an imported name, removes an import, or makes a module-level name bind another
object (`mp = tf.keras.mixed_precision.experimental` moved to the stable module) is right for the
file's own uses, which the rules follow, and wrong for another module's `from utils import mp`,
whose `mp.LossScaleOptimizer(opt, 128)` would then mean `dynamic=128`. So each changed Python file
says which of its module-level names its new code binds otherwise (`rebound`, kept in its result),
and the run looks for the files of its project that import one of them (`Importers`). Where one
does, the file is migrated again with those names kept (`Settings.importing`): the fixes that would
change them are reported instead, each naming the file that imports the name.

The search is by name and module, over every Python file and notebook of the repository the file
is in (another project there may import it), else of its project (the nearest folder above it
holding project metadata, as ruff and black find a configuration), whether the run migrates it or
not: a file the run leaves alone imports the name all the same. A file in no repository and no
project is looked for in its folder and the packages there. Only a file with rebound names is
looked for, and only files that name both its module and one of those names are parsed. A module
that several names could reach (`from utils import mp` and `from pkg.utils import mp`) matches
each: a superset, where the cost of a match is a fix reported instead of applied.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator

from tf24migrate.run.discovery import PathFilter, iter_source_files
from tf24migrate.run.files import UnreadableFile, decode_source, read_regular_file
from tf24migrate.sources.module_names import ModuleCode, cells_code, imports_of, rebound

__all__ = ["Importers", "rebound"]


class Importers:
    """The files that import names from a module, per project, for one run (each project's files
    listed once, each file read once)."""

    def __init__(self) -> None:
        from tf24migrate.run.project_metadata import Projects

        self._projects = Projects()
        self._files: dict[str, list[str]] = {}
        self._texts: dict[str, ModuleCode | None] = {}

    def of(self, path: str, names: Iterable[str]) -> dict[str, str]:
        """`{name: where}` for each of `names`, bound at the top of the Python file `path`, that
        another file of its project imports (`` `train.py` (line 3) ``, relative to the project)."""
        wanted = set(names)
        if not wanted:
            return {}
        real = os.path.realpath(path)
        root, everywhere = self._root(real)
        module = _module_parts(real, root)
        if not module:
            return {}
        words = re.compile(rf"\b{re.escape(module[-1])}\b")
        found: dict[str, str] = {}
        for other in self._python_files(root, everywhere):
            if other == real:
                continue
            code = self._code(other)
            if code is None or not words.search(code.text) or not _names_any(code.text, wanted):
                continue
            for name, line in imports_of(code.text, _package_parts(other, root), module, wanted):
                shown = os.path.relpath(other, root).replace(os.sep, "/")
                found.setdefault(name, f"`{shown}` ({code.place(line)})")
        return found

    def _root(self, path: str) -> tuple[str, bool]:
        """Where to look for the files that import from `path`, and whether to look in every
        folder there: the repository it is in (the folder holding `.git`), whose other projects
        may import it too (`official/` of a repository beside `research/`, each with its own
        requirements); else its project folder; else the folder above its top package, whose
        packages only are looked in (a loose script in a home folder must not walk the home
        folder)."""
        folder = os.path.dirname(path)
        top = None
        while True:
            if os.path.exists(os.path.join(folder, ".git")):
                return folder, True
            if top is None and not os.path.isfile(os.path.join(folder, "__init__.py")):
                top = folder
            if os.path.dirname(folder) == folder:
                break
            folder = os.path.dirname(folder)
        project = self._projects.folder(path)
        if project is not None:
            return os.path.realpath(project), True
        return top or folder, False

    def _python_files(self, root: str, everywhere: bool) -> list[str]:
        if root not in self._files:
            if everywhere:
                walked = iter_source_files([root], _SUFFIXES, PathFilter(root=root))
                self._files[root] = [os.path.realpath(path) for path in walked]
            else:
                self._files[root] = sorted(_package_files(root))
        return self._files[root]

    def _code(self, path: str) -> ModuleCode | None:
        if path not in self._texts:
            try:
                text = decode_source(read_regular_file(path)[0]).text
            except (OSError, UnreadableFile):
                self._texts[path] = None
            else:
                self._texts[path] = _notebook_code(text) if path.endswith(".ipynb") else ModuleCode(text)
        return self._texts[path]


def _notebook_code(text: str) -> ModuleCode | None:
    """The code of a notebook's cells as one module (a notebook beside the modules runs `from
    utils import mp` as a script does), as `migrate_notebook` reads them."""
    from tf24migrate.model.errors import SourceSyntaxError
    from tf24migrate.sources.notebook import python_cells

    try:
        return cells_code(python_cells(text))
    except SourceSyntaxError:
        return None


# The files that may import a module: Python files, and notebooks (beside the modules they import).
_SUFFIXES = (".py", ".ipynb")


def _package_files(folder: str) -> Iterator[str]:
    """The Python files and notebooks of `folder` and of the packages in it, and in theirs (real paths)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name.endswith(_SUFFIXES) and entry.is_file():
            yield os.path.realpath(entry.path)
        elif entry.is_dir(follow_symlinks=False) and os.path.isfile(os.path.join(entry.path, "__init__.py")):
            yield from _package_files(entry.path)


def _names_any(text: str, wanted: set[str]) -> bool:
    """Whether `text` may import one of `wanted`: it names one, or imports with `*`."""
    return "*" in text or any(re.search(rf"\b{re.escape(name)}\b", text) for name in wanted)


def _module_parts(path: str, root: str) -> list[str]:
    """The dotted parts of the module `path` is, from `root` (`pkg/__init__.py`: `["pkg"]`)."""
    relative = os.path.relpath(path, root)
    if relative.startswith(".."):
        return []
    parts = relative.replace(os.sep, "/").removesuffix(".py").split("/")
    return parts[:-1] if parts[-1] == "__init__" else parts


def _package_parts(path: str, root: str) -> list[str]:
    """The dotted parts of the package a relative import in `path` starts from."""
    parts = _module_parts(path, root)
    return parts if os.path.basename(path) == "__init__.py" else parts[:-1]
