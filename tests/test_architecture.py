"""The layout keeps data flowing one way: server, verify -> cli -> run -> sources -> engine -> catalogue -> rules <- transforms.

Each package may import its own modules and those of the packages below it (`LAYERS`, lowest
first; `server` and `verify` side by side at the top, neither importing the other); the rules in
`transforms/` see only `rules` and `model`. Imports inside functions count
too (only `if TYPE_CHECKING:` imports do not): a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tf24migrate"
TRANSFORMS = ROOT / "transforms"
LAYERS = ("model", "rules", "catalogue", "engine", "sources", "run", "cli", ("server", "verify"))
# The imports against the flow, each with its reason.
ALLOWED = {
    # The registry: `all_rules()` finds every rule module of tf24migrate.transforms, on first use.
    ("catalogue.selection", "transforms"),
    # The prose rule looks for the old names of every other rule.
    ("transforms.prose.old_names_in_prose", "catalogue"),
    # The command starts the language server (`tf24migrate server`), imported only then.
    ("cli.command", "server"),
    # The command hands `tf24migrate verify` to its own command, imported only then.
    ("cli.command", "verify"),
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    for path in sorted(TRANSFORMS.rglob("*.py")):
        name = ".".join(("transforms", *path.relative_to(TRANSFORMS).with_suffix("").parts))
        found[name.removesuffix(".__init__")] = path
    return found


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for statement in node.body for child in ast.walk(statement))
    return skipped


def _imports(path: Path) -> set[str]:
    """The tf24migrate modules `path` imports, named relative to the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_blocks(tree)
    names = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name.removeprefix("tf24migrate.") for name in names if name.startswith("tf24migrate.")}


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module `name` is (an imported name is resolved to its module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@functools.cache
def _graph() -> dict[str, set[str]]:
    graph = {}
    for module, path in MODULES.items():
        targets = {_resolve(name) for name in _imports(path)}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def _layer(module: str) -> int | None:
    top = module.split(".")[0]
    if top == "transforms":
        return LAYERS.index("rules")  # beside the rules API, never below it
    return next(
        (
            index
            for index, layer in enumerate(LAYERS)
            if top in (layer if isinstance(layer, tuple) else (layer,))
        ),
        None,
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_flow(module):
    layer = _layer(module)
    if layer is None:
        return  # the package's entry points (__init__, __main__, codemod) may import any part
    for target in sorted(_graph()[module]):
        top, target_top = module.split(".")[0], target.split(".")[0]
        if (module, target_top) in ALLOWED or target_top == top:
            continue
        if top == "transforms":
            assert target_top in ("rules", "model"), (
                f"{module} imports {target}: rules see only rules and model"
            )
            continue
        target_layer = _layer(target)
        assert target_layer is not None and target_layer < layer, (
            f"{module} imports {target}, against the flow cli -> run -> sources -> engine -> catalogue -> rules -> model"
        )


def test_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in graph.get(module, ()):
            if target.split(".")[0] == "transforms" and module == "catalogue.selection":
                continue  # the registry (ALLOWED)
            if state.get(target) == 1:
                cycle = stack[stack.index(target) :] if target in stack else [target]
                pytest.fail("import cycle: " + " -> ".join([*cycle, target]))
            if state.get(target) is None:
                visit(target, [*stack, target])
        state[module] = 2

    for module in sorted(graph):
        if state.get(module) is None:
            visit(module, [module])
