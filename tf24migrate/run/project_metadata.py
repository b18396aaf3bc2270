"""The TensorFlow requirement a project declares, read from its metadata without running it.

`project_target(path)` finds the project a path belongs to (the nearest folder, from the path
upwards, holding `pyproject.toml`, `setup.cfg`, a `setup.py` that calls `setup(...)`, a
`requirements*.txt`, an `environment.yml` or a Dockerfile) and reads every TensorFlow requirement there:

- `pyproject.toml`: `[project] dependencies` and `optional-dependencies`; Poetry's
  `[tool.poetry.dependencies]` and its groups' (`tensorflow = "^2.2"`, `{version = "~2.3"}`), its
  constraints read as PEP 440 (`^2.2`: `>=2.2,<3.0`; `~2.3`: `>=2.3,<2.4`; `2.3.*`; `||` of them);
- `setup.cfg`: `[options] install_requires` and `[options.extras_require]`;
- `setup.py`, read with `ast` and never executed: `install_requires=` and `extras_require=` of
  the `setup(...)` call, given as literals or as module-level names bound once to literals, a
  list among them read by its key from a module-level dict of lists (`REQUIREMENTS["install"]`);
- `requirements*.txt`, following `-r` / `--requirement` includes;
- `environment.yml` / `environment.yaml` (a line reader, not YAML): conda entries such as
  `tensorflow=2.3` (conda's `=` means that release series) and the pip entries under `- pip:`;
- Dockerfiles (`Dockerfile`, `Dockerfile.gpu`, `train.dockerfile`): the TensorFlow of a
  `tensorflow/tensorflow:X.Y` image, TF 1.15 for an NGC `...-tf1-...` image, and a
  `pip install tensorflow==X.Y`.

A notebook that installs a TensorFlow release itself (`!pip install -q tensorflow==2.3.0`) runs
on it: that is its target, over its project's (`Projects.own_target`).

Extras named for tests, documentation or development (`test`, `docs`, `dev`, `lint`, ...: see
`for_development`) are not read: they pin what the tools run on, not what the code supports.
Environment markers (`; python_version < "3.9"`) are not evaluated: the code must run wherever
any requirement applies, so every requirement counts. The target is the lowest TensorFlow minor
release any requirement allows (`target.lowest_and_newest`); a requirement without a version
gives none.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterator

from tf24migrate.model.target import (
    DEFAULT_VERSION,
    TENSORFLOW_DISTRIBUTIONS,
    Target,
    lowest_and_newest,
    named,
)
from tf24migrate.run.files import read_regular_file

_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "environment.yml", "environment.yaml")
_REQUIREMENTS = re.compile(r"^requirements.*\.txt$")
# A call of `setup(`, `setuptools.setup(` on a line that does not define a function of that name.
_SETUP_CALL = re.compile(r"(?m)^(?![ \t]*def[ \t])[^#\n]*\bsetup[ \t]*\(")
_DOCKERFILE = re.compile(r"^(?:Dockerfile(?:\..*)?|.*\.[Dd]ockerfile)$")
# The patterns of a Dockerfile, and of TensorFlow's own requirement, are strings, which `re`
# compiles when one is first used: most runs use none (compiling them took 0.8 ms of each run).
# `FROM tensorflow/tensorflow:1.15.5-gpu` and NGC's `FROM nvcr.io/nvidia/tensorflow:20.12-tf1-py3`
_TF_IMAGE = r"(?im)^\s*FROM\s+(?:\S*/)?tensorflow/tensorflow:(\d+)\.(\d+)"
_NGC_TF1_IMAGE = r"(?im)^\s*FROM\s+\S*nvidia/tensorflow:\S*-tf1\b"
_PIP_TENSORFLOW = r"\btensorflow(?:-gpu|-cpu)?(?:==|~=|>=)(\d+\.\d+(?:\.\d+)?)"
# A notebook's `!pip install ... tensorflow==2.3.0` (or `%pip`, `!python -m pip`), as its JSON
# holds the line: the TensorFlow the notebook runs, whatever its project declares.
_NOTEBOOK_PIP = (
    r'"[ \t]*([!%][ \t]*(?:python3?[ \t]+-m[ \t]+)?pip3?[ \t]+install\b[^"\n]*?'
    r"\btensorflow(?:-gpu|-cpu)?((?:==|~=|>=)\d+\.\d+(?:\.\d+)?))"
)
_NAME_PATTERN = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"  # PEP 508's
_NAME = re.compile(rf"\s*({_NAME_PATTERN})")  # first in a requirement
# The usual requirement: a name, perhaps extras, perhaps specifiers (`tensorflow[and-cuda]>=2.3,
# <2.5`, `tensorflow (==2.4.*)`); no marker, no URL; PEP 508's spaces and tabs. Its specifiers
# read alone (`SpecifierSet`) are what `Requirement` reads, whose parser costs a run about 9 ms
# to import; any other shape is left to `Requirement`.
_SPECIFIER = r"(?:===|~=|==|!=|<=|>=|<|>)[ \t]*[A-Za-z0-9.*+!_-]+"
_SPECIFIERS = rf"{_SPECIFIER}(?:[ \t]*,[ \t]*{_SPECIFIER})*"
_EXTRAS = rf"\[[ \t]*(?:{_NAME_PATTERN}[ \t]*(?:,[ \t]*{_NAME_PATTERN}[ \t]*)*)?\]"
_PLAIN_REQUIREMENT = (
    rf"[ \t]*{_NAME_PATTERN}[ \t]*(?:{_EXTRAS})?[ \t]*"
    rf"(?:\([ \t]*(?P<enclosed>{_SPECIFIERS})[ \t]*\)|(?P<specifiers>{_SPECIFIERS}))?[ \t]*"
)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


_DEVELOPMENT_WORDS = frozenset(
    [
        "test",
        "tests",
        "testing",
        "doc",
        "docs",
        "documentation",
        "dev",
        "develop",
        "development",
        "lint",
        "linting",
        "typing",
        "mypy",
        "style",
        "ci",
        "bench",
        "benchmark",
        "benchmarks",
        "coverage",
    ]
)


def for_development(extra: str) -> bool:
    """Whether an extra's name says it is for tests, documentation or development (`test`,
    `docs`, `dev-tools`, `test_gpu`): its pins are the tools', not the supported range."""
    return not _DEVELOPMENT_WORDS.isdisjoint(_canonical(extra).split("-"))


def tensorflow_specifier(requirement: str) -> str | None:
    """The version specifier of a PEP 508 requirement of TensorFlow (`""` for none), or None
    when the requirement is of another distribution (or not a requirement at all)."""
    name = _NAME.match(requirement)
    if name is None or _canonical(name.group(1)) not in TENSORFLOW_DISTRIBUTIONS:
        return None  # not TensorFlow's, whatever follows its name: `packaging` is not even imported
    plain = re.fullmatch(_PLAIN_REQUIREMENT, requirement)
    if plain is not None:
        from packaging.specifiers import InvalidSpecifier, SpecifierSet

        try:
            return str(SpecifierSet(plain["enclosed"] or plain["specifiers"] or ""))
        except InvalidSpecifier:
            return None
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        parsed = Requirement(requirement)
    except InvalidRequirement:
        return None
    return str(parsed.specifier) if _canonical(parsed.name) in TENSORFLOW_DISTRIBUTIONS else None


def project_folder(path: str, known: dict[str, str | None] | None = None) -> str | None:
    """The nearest folder from `path` upwards that holds project metadata, up to the project root
    (the folder holding `.git`: metadata above a repository is not its own). `known` holds the
    answers for folders already looked at (for many paths: each folder is listed once)."""
    folder = os.path.abspath(path if os.path.isdir(path) else os.path.dirname(path) or ".")
    known = {} if known is None else known
    visited = []
    while folder not in known:
        visited.append(folder)
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        parent = os.path.dirname(folder)
        if any(_is_metadata(folder, name) for name in names):
            known[folder] = folder
        elif parent == folder or ".git" in names:
            known[folder] = None
        else:
            folder = parent
    for folder_seen in visited:
        known[folder_seen] = known[folder]
    return known[folder]


def _is_metadata(folder: str, name: str) -> bool:
    """Whether the file `name` in `folder` is project metadata. A `setup.py` is only if it calls
    `setup(...)` (setuptools', distutils'): a plain module of that name (NVIDIA's
    `utils/setup.py`, defining `set_flags()`) makes no project of its folder."""
    if name == "setup.py":
        try:
            text = _read(os.path.join(folder, name))
        except (OSError, ValueError):
            return False
        return _calls_setup(text)
    return name in _MARKERS or bool(_REQUIREMENTS.match(name) or _DOCKERFILE.match(name))


class Projects:
    """Each folder's project folder and each project's target, each read once (for a run over
    many files: each folder is listed once, each project's metadata read once)."""

    def __init__(self) -> None:
        self._folders: dict[str, str | None] = {}  # each folder's project folder
        self._targets: dict[str | None, Target] = {}  # by project folder
        self._own: dict[str, Target | None] = {}  # by notebook

    def folder(self, path: str) -> str | None:
        """The project folder of `path` (a file or a folder); None: no project metadata above it."""
        return project_folder(path, self._folders)

    def target(self, project: str | None, path: str) -> Target:
        """The target of `project`, the project folder of `path` (`folder(path)`)."""
        if project not in self._targets:
            self._targets[project] = project_target(project or path)
        return self._targets[project]

    def target_of(self, path: str) -> Target:
        """The target of `path`: its own, for a notebook that installs a TensorFlow
        (`own_target`); else that of the project it belongs to."""
        return self.own_target(path) or self.target(self.folder(path), path)

    def own_target(self, path: str) -> Target | None:
        """The target a notebook sets itself, by installing a TensorFlow (`!pip install
        tensorflow==2.3.0`), over its project's: what it runs on; None for any other file."""
        if not path.endswith(".ipynb"):
            return None
        if path not in self._own:
            self._own[path] = notebook_target(path)
        return self._own[path]


def _read(path: str) -> str:
    return read_regular_file(path)[0].decode("utf-8", "replace")


def _pyproject(path: str, read_extra: Callable[[str], bool]) -> Iterator[str]:
    from tf24migrate.run.config import toml_parser

    tomllib = toml_parser()
    try:
        document = tomllib.loads(_read(path))
    except (tomllib.TOMLDecodeError, RecursionError):  # not TOML, or nested too deeply to read
        return
    project = document.get("project", {})
    if isinstance(project, dict):
        yield from _strings(project.get("dependencies"))
        extras = project.get("optional-dependencies")
        for name, group in extras.items() if isinstance(extras, dict) else ():
            if read_extra(name):
                yield from _strings(group)
    tool = document.get("tool", {})
    poetry = tool.get("poetry", {}) if isinstance(tool, dict) else {}
    if isinstance(poetry, dict):
        yield from _poetry(poetry, read_extra)


def _poetry(poetry: dict, read_extra: Callable[[str], bool]) -> Iterator[str]:
    """The requirements, as PEP 508 strings, of Poetry's `dependencies` table and of its groups'
    (`[tool.poetry.group.<name>.dependencies]`, those `read_extra` reads; the old
    `dev-dependencies` never)."""
    tables = [poetry.get("dependencies")]
    groups = poetry.get("group")
    for name, group in groups.items() if isinstance(groups, dict) else ():
        if read_extra(name) and isinstance(group, dict):
            tables.append(group.get("dependencies"))
    for table in tables:
        for name, constraint in table.items() if isinstance(table, dict) else ():
            if isinstance(constraint, dict):
                constraint = constraint.get("version", "*")
            if isinstance(constraint, str):
                for alternative in constraint.split("||"):
                    specifier = _poetry_specifier(alternative)
                    if specifier is not None:
                        yield f"{name}{specifier}"


_POETRY_VERSION = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def _poetry_specifier(constraint: str) -> str | None:
    """A Poetry version constraint as a PEP 440 specifier (`^2.2`: `>=2.2,<3.0`, `~2.3`:
    `>=2.3,<2.4`, `2.3`: `==2.3`, `*`: ""), or None when it is none of Poetry's forms."""
    parts = [part.strip() for part in constraint.replace(",", " ").split()]
    specifiers = []
    for part in parts:
        if part == "*":
            continue
        if part.startswith(("<", ">", "=", "!", "~=")):
            specifiers.append(part)
            continue
        caret, tilde = part.startswith("^"), part.startswith("~")
        bare = part.lstrip("^~")
        version = _POETRY_VERSION.fullmatch(bare)
        if bare.endswith(".*"):
            specifiers.append(f"=={bare}")
        elif version is None:
            return None
        elif caret or tilde:
            major, minor, patch = (int(v) if v is not None else None for v in version.groups())
            if caret and major:
                upper = f"{major + 1}.0"
            elif caret and minor:
                upper = f"0.{minor + 1}"
            elif tilde and minor is not None:
                upper = f"{major}.{minor + 1}"
            else:
                upper = f"{(major or 0) + 1}.0" if tilde else f"0.0.{(patch or 0) + 1}"
            specifiers += [f">={bare}", f"<{upper}"]
        else:
            specifiers.append(f"=={bare}")
    return ",".join(specifiers)


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _setup_cfg(path: str, read_extra: Callable[[str], bool]) -> Iterator[str]:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(_read(path))
    except configparser.Error:
        return
    values = []
    if parser.has_option("options", "install_requires"):
        values.append(parser.get("options", "install_requires"))
    if parser.has_section("options.extras_require"):
        values += [value for name, value in parser.items("options.extras_require") if read_extra(name)]
    for value in values:
        yield from (line.strip() for line in value.splitlines() if line.strip())


def _setup_tree(text: str) -> ast.Module | None:
    """The `ast` of a `setup.py`'s text, None when Python cannot read it."""
    from tf24migrate.rules.text import parse_python  # only for a folder with a setup.py

    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return tree if isinstance(tree, ast.Module) else None


def _setup_calls(tree: ast.Module) -> Iterator[ast.Call]:
    """The calls of `setup(...)` (`setuptools.setup`, `setup` imported) in a `setup.py`."""
    return (node for node in ast.walk(tree) if isinstance(node, ast.Call) and _callee(node.func) == "setup")


def _calls_setup(text: str) -> bool:
    """Whether a `setup.py`'s code calls `setup(...)` (a comment or a docstring saying so does not),
    read by a pattern first (most text has no `setup(`), then by Python."""
    if _SETUP_CALL.search(text) is None:
        return False
    tree = _setup_tree(text)
    return tree is None or next(_setup_calls(tree), None) is not None


def _setup_py(path: str, read_extra: Callable[[str], bool]) -> Iterator[str]:
    tree = _setup_tree(_read(path))
    if tree is None:
        return
    # Module-level lists of strings, each assignment evaluated in turn (`REQUIRED = REQUIRED +
    # [...]` reads the binding before it), and the last node bound to each name.
    # Module-level dicts of such lists are kept by key, for `install_requires=REQUIREMENTS["install"]`.
    lists: dict[str, list[str]] = {}
    keyed: dict[str, dict[str, list[str]]] = {}
    nodes: dict[str, ast.expr] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                lists[target.id] = _literal_strings(statement.value, lists, keyed)
                keyed[target.id] = _keyed_lists(statement.value, lists, keyed)
                nodes[target.id] = statement.value
    for node in _setup_calls(tree):
        for keyword in node.keywords:
            if keyword.arg == "install_requires":
                yield from _literal_strings(keyword.value, lists, keyed)
            elif keyword.arg == "extras_require":
                value = (
                    nodes.get(keyword.value.id, keyword.value)
                    if isinstance(keyword.value, ast.Name)
                    else keyword.value
                )
                if isinstance(value, ast.Dict):
                    for key, group in zip(value.keys, value.values, strict=True):
                        named_for = key.value if isinstance(key, ast.Constant) else None
                        if not isinstance(named_for, str) or read_extra(named_for):
                            yield from _literal_strings(group, lists, keyed)


def _callee(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _keyed_lists(
    node: ast.expr, lists: dict[str, list[str]], keyed: dict[str, dict[str, list[str]]]
) -> dict[str, list[str]]:
    """The lists of strings of a dict literal by their string keys (`{"install": [...], ...}`),
    each value read as `_literal_strings` reads it; {} for anything else."""
    if not isinstance(node, ast.Dict):
        return {}
    return {
        key.value: _literal_strings(value, lists, keyed)
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }


def _literal_strings(
    node: ast.expr, lists: dict[str, list[str]], keyed: dict[str, dict[str, list[str]]]
) -> list[str]:
    """The strings of a list expression: a literal, a name bound to one before (`lists`), a list
    of a dict bound before read by a string key (`keyed`: `REQUIREMENTS["install"]`), or a chain
    of them joined by `+` (walked without recursion, however long)."""
    terms = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # `BASE + [...] + [...]`
        terms.append(node.right)
        node = node.left
    terms.append(node)
    strings: list[str] = []
    for term in reversed(terms):
        if isinstance(term, ast.Name):
            strings += lists.get(term.id, [])
            continue
        if isinstance(term, ast.Subscript) and isinstance(term.value, ast.Name):
            key = term.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                strings += keyed.get(term.value.id, {}).get(key.value, [])
            continue
        try:
            value = ast.literal_eval(term)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            continue
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, (list, tuple)):
            strings += [item for item in value if isinstance(item, str)]
    return strings


def _requirements(path: str, seen: set[str]) -> Iterator[str]:
    """The requirements of a requirements file and of the files it includes (`-r`), however long
    the chain of includes (a stack, not recursion); a file in `seen` (real paths) is not read
    again (`requirements_in` shares it between the files of a folder)."""
    stack: list[tuple[str, Iterator[str]]] = []

    def include(included: str) -> None:
        real = os.path.realpath(included)
        if real not in seen and os.path.isfile(included):
            seen.add(real)
            text = re.sub(r"\\\n", "", _read(included))  # continued lines
            stack.append((os.path.dirname(included), iter(text.splitlines())))

    include(path)
    while stack:
        folder, lines = stack[-1]
        line = next(lines, None)
        if line is None:
            stack.pop()
            continue
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        included = re.match(r"^(?:-r|--requirement)(?:\s+|=)(\S+)", line)
        if included:
            include(os.path.join(folder, included[1]))
        elif line and not line.startswith("-"):
            yield line


def _conda_specifier(entry: str) -> str | None:
    """A conda match spec of TensorFlow (`tensorflow=2.3`, `conda-forge::tensorflow 2.3.*`,
    `tensorflow>=2.3`) as a PEP 440 specifier, or None for another package."""
    entry = entry.split("::", 1)[-1].strip()
    match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*)$", entry)
    if match is None or _canonical(match[1]) not in TENSORFLOW_DISTRIBUTIONS:
        return None
    spec = match[2].strip()
    # `=2.3`, `2.3`, `2.3.*`, `=2.3.0=build`: that release series (a build string after the
    # version, separated by `=` or a space, is dropped).
    series = re.fullmatch(r"=?([0-9][0-9.]*?)(?:\.\*)?(?:[= ].*)?", spec)
    if series:
        return f"=={series[1]}.*"
    return spec.replace(" ", "")


def _environment_yml(path: str) -> Iterator[str]:
    """The TensorFlow entries of a conda environment file, as PEP 508 requirements."""
    pip_indent = None
    for raw in _read(path).splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        match = re.match(r"^(\s*)-\s+(.*)$", line)
        if match is None:
            if line.strip() and not line.startswith(" "):
                pip_indent = None  # a new top-level key
            continue
        indent, entry = len(match[1]), match[2].strip().strip("\"'")
        if entry.rstrip(":") == "pip" and entry.endswith(":"):
            pip_indent = indent
            continue
        if pip_indent is not None and indent > pip_indent:
            yield entry
            continue
        pip_indent = None
        spec = _conda_specifier(entry)
        if spec is not None:
            yield f"tensorflow{spec}"


def _dockerfile(path: str) -> Iterator[str]:
    """The TensorFlow a Dockerfile runs, as PEP 508 requirements: a `tensorflow/tensorflow:X.Y`
    image, an NGC `...-tf1-...` image (TF 1.15), a `pip install tensorflow==X.Y` in a RUN line."""
    text = _read(path)
    for match in re.finditer(_TF_IMAGE, text):
        yield f"tensorflow=={match.group(1)}.{match.group(2)}.*"
    if re.search(_NGC_TF1_IMAGE, text):
        yield "tensorflow>=1.15,<2"
    for match in re.finditer(_PIP_TENSORFLOW, text):
        yield f"tensorflow=={'.'.join(match.group(1).split('.')[:2])}.*"


def for_the_code(extra: str) -> bool:
    """Whether an extra is read for the TensorFlow the code supports: not one `for_development`."""
    return not for_development(extra)


def requirements_in(
    folder: str, read_extra: Callable[[str], bool] = for_the_code
) -> Iterator[tuple[str, str]]:
    """`(file name, requirement)` for every requirement declared in the metadata in `folder`:
    those of the extras whose names `read_extra` keeps (by default, not those for development)."""
    readers: dict[str, Callable[[str], Iterator[str]]] = {
        "pyproject.toml": lambda path: _pyproject(path, read_extra),
        "setup.cfg": lambda path: _setup_cfg(path, read_extra),
        "setup.py": lambda path: _setup_py(path, read_extra),
        "environment.yml": _environment_yml,
        "environment.yaml": _environment_yml,
    }
    names = sorted(os.listdir(folder))
    seen: set[str] = set()  # the requirements files read (each once, however many include it)
    for name in [*readers, *(n for n in names if _REQUIREMENTS.match(n) or _DOCKERFILE.match(n))]:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        reader = readers.get(
            name, _dockerfile if _DOCKERFILE.match(name) else lambda path: _requirements(path, seen)
        )
        try:
            for requirement in reader(path):
                yield name, requirement
        except (OSError, ValueError, RecursionError, MemoryError):  # unreadable: as if absent
            continue


def project_target(path: str) -> Target:
    """The target read from the metadata of the project `path` belongs to; the default (2.4)
    when there is none, or when no TensorFlow requirement there names a version. Its source names
    the file and the requirement that set it (`from setup.py: tensorflow>=2.3`)."""
    folder = project_folder(path)
    if folder is None:
        return named(DEFAULT_VERSION, "default: no project metadata found")
    specifiers: dict[str, list[str]] = {}
    lowest_by: dict[str, dict[tuple[int, int], str]] = {}  # per file: the first requirement of each floor
    for name, requirement in requirements_in(folder):
        specifier = tensorflow_specifier(requirement)
        if specifier is not None:
            specifiers.setdefault(name, []).append(specifier)
            bounds = lowest_and_newest([specifier])
            if bounds is not None:
                lowest_by.setdefault(name, {}).setdefault(bounds[0], " ".join(requirement.split()))
    where = _shown(folder)
    lowest_newest = {name: lowest_and_newest(found) for name, found in specifiers.items()}
    found = {name: bounds for name, bounds in lowest_newest.items() if bounds is not None}
    if not found:
        return named(DEFAULT_VERSION, f"default: no TensorFlow version required in {where}")
    name = min(found, key=lambda n: found[n][0])
    newest = [bounds[1] for bounds in found.values()]
    pinned = lowest_by.get(name, {}).get(found[name][0])
    return Target(
        found[name][0],
        f"from {os.path.join(where, name) if where != '.' else name}{f': {pinned}' if pinned else ''}",
        None if None in newest else max(v for v in newest if v is not None),
    )


def notebook_target(path: str) -> Target | None:
    """The target of the notebook at `path` where one of its lines installs a TensorFlow release
    (`!pip install -q tensorflow==2.3.0`, read as a Dockerfile's `pip install` is); else None."""
    try:
        text = _read(path)
    except (OSError, ValueError):
        return None
    match = re.search(_NOTEBOOK_PIP, text) if "pip" in text else None
    if match is None:
        return None
    specifier = match.group(2)
    if specifier.startswith("=="):  # `==2.3` installs 2.3.0: the release series
        specifier = f"=={'.'.join(specifier[2:].split('.')[:2])}.*"
    bounds = lowest_and_newest([specifier])
    if bounds is None:
        return None
    return Target(bounds[0], f"from {_shown(path)}: {match.group(1)}", bounds[1])


def _shown(folder: str) -> str:
    """`folder` as the user would name it: relative to the current folder when inside it."""
    relative = os.path.relpath(folder)
    return folder if relative.startswith("..") else relative
