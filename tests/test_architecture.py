"""The layout keeps data flowing one way: server, verify -> cli -> run -> sources -> engine -> catalogue -> transforms -> rules -> model.

Each package may import its own modules and those of the packages below it (`LAYERS`, lowest
first; `server` and `verify` side by side at the top, neither importing the other): the rules in
`transforms/` see only `rules` and `model`, and the catalogue finds them. Imports inside
functions count too, and so do `if TYPE_CHECKING:` imports: a lazy import is still a dependency,
and a type named from a higher layer ties the lower one to it as surely. Only the import cycles
are counted without the `if TYPE_CHECKING:` imports, which make none at run time.
docs/contributing.md draws these layers and their exceptions; a test here keeps the drawing true.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tf24migrate"
TRANSFORMS = ROOT / "transforms"
LAYERS = (
    "model",
    "rules",
    "transforms",
    "catalogue",
    "engine",
    "sources",
    "run",
    "cli",
    ("server", "verify"),
)
# The imports against the flow, each with its reason: the one command, `tf24migrate`, also starts
# the two packages above `cli`, each imported only when its subcommand is given.
ALLOWED = {
    ("cli", "server"): "`tf24migrate server` handles SIGTERM from its first code (`server.sigterm`)",
    ("cli.command", "server"): "`tf24migrate server` starts the language server",
    ("cli.command", "verify"): "`tf24migrate verify` hands its arguments to its own command",
}
CONTRIBUTING = ROOT / "docs" / "contributing.md"


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


def _imports(path: Path, *, typing: bool) -> set[str]:
    """The tf24migrate modules `path` imports, named relative to the package; with `typing`, its
    `if TYPE_CHECKING:` imports too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set() if typing else _type_checking_blocks(tree)
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
def _graph(*, typing: bool) -> dict[str, set[str]]:
    """Each module's imports of other modules (with `typing`: its type-only imports too)."""
    graph = {}
    for module, path in MODULES.items():
        targets = {_resolve(name) for name in _imports(path, typing=typing)}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def _layer(module: str) -> int | None:
    top = module.split(".")[0]
    return next(
        (
            index
            for index, layer in enumerate(LAYERS)
            if top in (layer if isinstance(layer, tuple) else (layer,))
        ),
        None,
    )


def _against_the_flow(module: str) -> list[str]:
    """The modules `module` imports (type-only imports included) from its own layer's other
    packages or a higher layer, without the `ALLOWED` ones."""
    layer = _layer(module)
    if layer is None:
        return []  # the package's entry points (__init__, __main__, codemod) and `dev` may import any part
    top = module.split(".")[0]
    wrong = []
    for target in sorted(_graph(typing=True)[module]):
        target_top, target_layer = target.split(".")[0], _layer(target)
        if target_top == top or (module, target_top) in ALLOWED:
            continue
        if target_layer is None or target_layer >= layer:
            wrong.append(target)
    return wrong


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_flow(module):
    assert not _against_the_flow(module), (
        f"{module} imports {', '.join(_against_the_flow(module))}, against the flow {_FLOW} "
        "(an `if TYPE_CHECKING:` import counts: type on a value of a lower layer instead)"
    )


def test_every_exception_to_the_flow_is_used():
    for module, package in ALLOWED:
        used = {target.split(".")[0] for target in _graph(typing=True)[module]}
        assert package in used, f"{module} no longer imports {package}: drop it from ALLOWED"


def test_type_only_imports_count_for_the_flow_not_for_cycles(tmp_path):
    """The flow test reads `if TYPE_CHECKING:` imports (a type named from a higher layer ties the
    lower one to it, as `model.target` was tied to `Rule`); the cycle test does not (they make no
    cycle at run time)."""
    lower = tmp_path / "target.py"
    lower.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tf24migrate.rules.base import Rule\n"
    )
    assert _imports(lower, typing=True) == {"rules.base", "rules.base.Rule"}
    assert _imports(lower, typing=False) == set()


def test_no_import_cycles():
    graph = _graph(typing=False)
    state: dict[str, int] = {}

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in graph.get(module, ()):
            if state.get(target) == 1:
                cycle = stack[stack.index(target) :] if target in stack else [target]
                pytest.fail("import cycle: " + " -> ".join([*cycle, target]))
            if state.get(target) is None:
                visit(target, [*stack, target])
        state[module] = 2

    for module in sorted(graph):
        if state.get(module) is None:
            visit(module, [module])


_FLOW = " -> ".join(", ".join(layer) if isinstance(layer, tuple) else layer for layer in reversed(LAYERS))


def layers_drawing() -> str:
    """The layers as docs/contributing.md draws them: the flow, then each exception to it."""
    lines = [_FLOW, "", "against the flow, each imported only when its subcommand is given:"]
    lines += [f"  {module} -> {package}: {reason}" for (module, package), reason in ALLOWED.items()]
    return "\n".join(lines)


def test_the_contributor_guide_draws_the_layers_this_test_checks():
    guide = CONTRIBUTING.read_text(encoding="utf-8")
    assert f"```\n{layers_drawing()}\n```" in guide, (
        f"docs/contributing.md must draw the layers of tests/test_architecture.py as:\n{layers_drawing()}"
    )
