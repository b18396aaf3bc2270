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

import ast
import bisect
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tf24migrate.rules.text import parse_python, parsed_or_none
from tf24migrate.run.discovery import PathFilter, iter_source_files
from tf24migrate.run.files import UnreadableFile, decode_source, read_regular_file

if TYPE_CHECKING:
    from tf24migrate.sources.notebook_cells import CellCode


def rebound(source: str, code: str) -> tuple[str, ...]:
    """The names that `code` (a migration of `source`) binds otherwise: an imported name renamed
    or no longer imported, an import or an alias assignment (`mp = tf.a.b`) of another module or
    name, a name assigned a call of another callable (`policy = ...experimental.Policy(...)` made
    the stable `Policy`, which has no `loss_scale` for an importer to read). Names bound by other
    statements (`def`) are not compared, nor a call's arguments; names bound in functions are (a
    superset of the module's names: a name found costs a search, no more). Only the statements
    that differ are parsed."""
    before, after = _binding_text(source), _binding_text(code)
    if before == after:  # most changes
        return ()
    taken, added = Counter(before), Counter(after)
    old, new = _bindings(list((taken - added).elements())), _bindings(list((added - taken).elements()))
    names = {name for name, bound in old.items() if new.get(name) != bound}
    return tuple(sorted(names | _made_by(after, names)))


def _made_by(statements: list[str], names: set[str]) -> set[str]:
    """The names `statements` assign a call of one of `names` (`policy = Policy(...)`, `Policy`
    imported from elsewhere now): their objects may be of another class, the line unchanged."""
    if not names:
        return set()
    call = re.compile(rf"=[ \t]*(?:{'|'.join(map(re.escape, names))})\b[\w. \t]*\(")
    return {
        name
        for name, bound in _bindings(
            [statement for statement in statements if call.search(statement)]
        ).items()
        if any(value.partition(".")[0].removesuffix("()") in names for value in bound)
    }


# What marks a line that may bind a name as `_bindings` reads them: an import (`from a \\` then
# `import b` on the next line reads as `import b`: the same names on both sides), an alias
# assignment (`mp = tf.a.b`, also after `if x:`; `mp = (` continued), the assignment of a call
# (`policy = mp.Policy(`). Each starts with a literal, which Python's `re` finds fast (`\\bimport`
# would take 50 times as long).
_BINDING_MARKS = (
    re.compile(r"import\b"),
    re.compile(r"=[ \t]*(?:[\w.]+|\()[ \t]*(?:#.*)?$", re.MULTILINE),
    re.compile(r"=[ \t]*[\w.]+\("),
)
# A clause's keyword before a statement on its line (`try: import a`): left out to parse the statement.
_CLAUSE = re.compile(r"(?:try|else|finally|except\b[^:\n]*)[ \t]*:[ \t]*")


def _binding_text(text: str) -> list[str]:
    """The statements of `text` that may bind a name as `_bindings` reads them, each from the
    start of its line, with its continuation lines (in parentheses, after a backslash): a
    superset, so two texts whose lists are equal bind their names alike."""
    marks = sorted({match.start() for pattern in _BINDING_MARKS for match in pattern.finditer(text)})
    found = []
    end = -1
    for mark in marks:
        if mark <= end:  # on a line taken already
            continue
        start = text.rfind("\n", 0, mark) + 1
        end = text.find("\n", mark)
        end = len(text) if end < 0 else end
        line = text[start:end]
        depth = _opened(line)
        while (depth > 0 or line.endswith("\\")) and end < len(text):
            following = text.find("\n", end + 1)
            following = len(text) if following < 0 else following
            line, end = text[end + 1 : following], following
            depth += _opened(line)
        found.append(text[start:end])
    return found


def _bindings(statements: list[str]) -> dict[str, list[str]]:
    """`{name: what each import or alias assignment of `statements` binds it to}`; a statement
    that does not parse on its own (a line of prose in a string) binds nothing."""
    found: dict[str, list[str]] = {}
    for statement in statements:
        try:
            tree = parse_python(_CLAUSE.sub("", statement.lstrip(" \t"), count=1))
        except (SyntaxError, ValueError, RecursionError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = alias.asname or alias.name.partition(".")[0]
                    found.setdefault(name, []).append(alias.name if alias.asname else name)
            elif isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                for alias in node.names:
                    found.setdefault(alias.asname or alias.name, []).append(f"{module}:{alias.name}")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
                value := node.value, (ast.Attribute, ast.Name, ast.Call)
            ):
                bound = f"{ast.unparse(value.func)}()" if isinstance(value, ast.Call) else ast.unparse(value)
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, []).append(bound)
    return found


def _opened(line: str) -> int:
    """How many more parentheses `line` opens than it closes, its comment left out."""
    code = line.partition("#")[0]
    return code.count("(") - code.count(")")


class Importers:
    """The files that import names from a module, per project, for one run (each project's files
    listed once, each file read once)."""

    def __init__(self) -> None:
        from tf24migrate.run.project_metadata import Projects

        self._projects = Projects()
        self._files: dict[str, list[str]] = {}
        self._texts: dict[str, _Code | None] = {}

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
            for name, line in _imported(code.text, _package_parts(other, root), module, wanted):
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

    def _code(self, path: str) -> _Code | None:
        if path not in self._texts:
            try:
                text = decode_source(read_regular_file(path)[0]).text
            except (OSError, UnreadableFile):
                self._texts[path] = None
            else:
                self._texts[path] = _notebook_code(text) if path.endswith(".ipynb") else _Code(text)
        return self._texts[path]


@dataclass(frozen=True, slots=True)
class _Code:
    """The Python code of a file: a module's text, or the code cells of a notebook (`cells`)
    joined, each starting on its line of `starts`."""

    text: str
    cells: tuple[CellCode, ...] = ()
    starts: tuple[int, ...] = ()

    def place(self, line: int) -> str:
        """Where `line` of `text` is in the file, as a finding names it."""
        if not self.cells:
            return f"line {line}"
        at = bisect.bisect_right(self.starts, line) - 1
        cell = self.cells[at]
        return f"cell {cell.number}, line {cell.in_cell(line - self.starts[at] + 1, 1)[0]}"


def _notebook_code(text: str) -> _Code | None:
    """The code of a notebook's cells as one module (a notebook beside the modules runs `from
    utils import mp` as a script does): the cells that parse, their IPython lines masked, as
    `migrate_notebook` reads them."""
    from tf24migrate.model.errors import SourceSyntaxError
    from tf24migrate.sources.notebook import python_cells

    try:
        cells = [cell for cell in python_cells(text) if parsed_or_none(cell.masked.code) is not None]
    except SourceSyntaxError:
        return None
    starts, line = [], 1
    for cell in cells:
        starts.append(line)
        line += cell.masked.code.count("\n") + 1
    return _Code("\n".join(map(_with_runs, cells)), tuple(cells), tuple(starts))


# `%run utils.py` (or `%run -m pkg.utils`) runs a module in the notebook's namespace, as `from
# utils import *` would bring its names.
_RUN = re.compile(r"[ \t]*%run[ \t]+(?:-[a-ln-z]\S*[ \t]+)*(?:-m[ \t]+([\w.]+)|(?:\S*/)?(\w+)\.py)\b")


def _with_runs(cell: CellCode) -> str:
    """The masked code of `cell`, each `%run` of a module as a star import of it, on its line."""
    masked = cell.masked
    if not any("%run" in line for line in masked.ipython_lines):
        return masked.code

    def run(match: re.Match[str]) -> str:
        ran = _RUN.match(masked.ipython_lines[int(match.group(2))])
        return (
            match.group(0) if ran is None else f"{match.group(1)}from {ran.group(1) or ran.group(2)} import *"
        )

    return re.sub(rf"^([ \t]*){masked.placeholder}(\d+)__(?=\r?\n|\Z)", run, masked.code, flags=re.MULTILINE)


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


def _reaches(parts: list[str], module: list[str]) -> bool:
    """Whether an absolute import of `parts` may be `module`: `module` ends with it (a source
    folder such as `src/` may be on the path)."""
    return bool(parts) and module[-len(parts) :] == parts


def _imported(
    text: str, importer: list[str], module: list[str], wanted: set[str]
) -> Iterator[tuple[str, int]]:
    """`(name, line)` for each import of a name of `wanted` from `module` in `text`, a module of
    the package `importer`: `from module import name` (or `*`, for the names without a leading underscore),
    and `alias.name` where `alias` is the module imported (`import pkg.module as alias`, `from pkg
    import module`)."""
    tree = parsed_or_none(text)  # silent, as for the user's files the engine reads
    if tree is None:
        return
    spelled: set[str] = set()  # what the module is read as in `text`: `alias.name`
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            parts = node.module.split(".") if node.module else []
            if node.level:  # relative: from the package the dots name
                base = importer[: len(importer) - node.level + 1] if node.level <= len(importer) + 1 else None
                is_module = base is not None and base + parts == module
                holds = base is not None and base + parts == module[:-1]
            else:
                is_module = _reaches(parts, module)
                holds = _reaches([*parts, module[-1]], module)
            for alias in node.names:
                if is_module and (alias.name in wanted or alias.name == "*"):
                    names = (
                        [alias.name]
                        if alias.name != "*"
                        else sorted(n for n in wanted if not n.startswith("_"))
                    )
                    yield from ((name, node.lineno) for name in names)
                elif holds and alias.name == module[-1]:
                    spelled.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _reaches(alias.name.split("."), module):
                    spelled.add(alias.asname or alias.name)
    if not spelled:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in wanted and ast.unparse(node.value) in spelled:
            yield node.attr, node.lineno
