"""Which module-level names a migration binds otherwise, and which of them a module's text
imports from another module: what `run.importers` reads of the project's files, and what a
notebook reads of its own `%%writefile` modules (`sources.notebook`).
"""

from __future__ import annotations

import ast
import bisect
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tf24migrate.rules.text import parse_python, parsed_or_none
from tf24migrate.sources.notebook_cells import CellCode


def rebound(source: str, code: str) -> tuple[str, ...]:
    """The names that `code` (a migration of `source`) binds otherwise: an imported name renamed
    or no longer imported, an import or an alias assignment (`mp = tf.a.b`) of another module or
    name, a name assigned a call of another callable (`policy = ...experimental.Policy(...)` made
    the stable `Policy`, which has no `loss_scale` for an importer to read). Names bound by other
    statements (`def`) are not compared, nor a call's arguments; names bound in functions are (a
    superset of the module's names: a name found costs a search, no more), except a name assigned
    a call, which counts only at the top level (unindented): a function's `dataset =
    strategy.distribute_datasets_from_function(...)` is a local, and such locals cost a search of
    the repository in a third of the Model Garden's changed files. Only the statements that
    differ are parsed."""
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
    """`{name: what each import or alias assignment of `statements` binds it to}`, and what each
    assignment of a call at the top level (unindented) does; a statement that does not parse on
    its own (a line of prose in a string) binds nothing."""
    found: dict[str, list[str]] = {}
    for statement in statements:
        top = statement[:1] not in " \t"
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
                value := node.value, (ast.Attribute, ast.Name, ast.Call) if top else (ast.Attribute, ast.Name)
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


@dataclass(frozen=True, slots=True)
class ModuleCode:
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


def cells_code(cells: Sequence[CellCode]) -> ModuleCode:
    """The code of notebook cells as one module (IPython lines masked, a `%run` of a module read
    as a star import of it), for `imports_of`: the cells that parse."""
    cells = [cell for cell in cells if parsed_or_none(cell.masked.code) is not None]
    starts, line = [], 1
    for cell in cells:
        starts.append(line)
        line += cell.masked.code.count("\n") + 1
    return ModuleCode("\n".join(map(_with_runs, cells)), tuple(cells), tuple(starts))


# `%run utils.py` (or `%run "my dir/utils.py"`, `%run -m pkg.utils`) runs a module in the
# notebook's namespace, as `from utils import *` would bring its names. IPython splits the line
# as a shell does, so a path may be quoted.
_RUN = re.compile(
    r"""[ \t]*%run[ \t]+(?:-[a-ln-z]\S*[ \t]+)*"""
    r"""(?:-m[ \t]+([\w.]+)\b|(?:"(?:[^"\n]*/)?(\w+)\.py"|'(?:[^'\n]*/)?(\w+)\.py'|(?:\S*/)?(\w+)\.py)(?=\s|\Z))"""
)


def _with_runs(cell: CellCode) -> str:
    """The masked code of `cell`, each `%run` of a module as a star import of it, on its line."""
    masked = cell.masked
    if not any("%run" in line for line in masked.ipython_lines):
        return masked.code

    def run(match: re.Match[str]) -> str:
        ran = _RUN.match(masked.ipython_lines[int(match.group(2))])
        return (
            match.group(0)
            if ran is None
            else f"{match.group(1)}from {next(filter(None, ran.groups()))} import *"
        )

    return re.sub(rf"^([ \t]*){masked.placeholder}(\d+)__(?=\r?\n|\Z)", run, masked.code, flags=re.MULTILINE)


def _reaches(parts: list[str], module: list[str]) -> bool:
    """Whether an absolute import of `parts` may be `module`: `module` ends with it (a source
    folder such as `src/` may be on the path)."""
    return bool(parts) and module[-len(parts) :] == parts


def imports_of(
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
    packages: set[str] = set()  # the names of `import pkg`, which reach the module as `pkg.utils`
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
                elif alias.asname is None:  # `import pkg`, then `pkg.utils.mp` (`pkg` imports `utils`)
                    packages.add(alias.name.partition(".")[0])
    if not spelled and not packages:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in wanted:
            chain = ast.unparse(node.value)
            if chain in spelled or (
                chain.partition(".")[0] in packages and _reaches(chain.split("."), module)
            ):
                yield node.attr, node.lineno
