"""The rules of tf24migrate, installed as `tf24migrate.transforms`: one package per family of codes
(TF241xx `distribute`, TF242xx `keras`, ...), holding its rename rows in `renames` and one module per
structural rule.

Every module under this package, at any depth, that defines `RULES` is registered: adding a rule is
adding a row to `renames` (or a module with a class) and listing it in that module's `RULES`.
Modules and packages whose name starts with `_` hold what rules share and are not searched.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tf24migrate.rules.base import Rule

# The family package of each code prefix.
FAMILIES = {
    "TF241": "distribute",
    "TF242": "keras",
    "TF243": "mixed_precision",
    "TF244": "data",
    "TF245": "core",
    "TF246": "other",
    "TF247": "c_api",
    "TF248": "prose",
}


def rule_modules(package: str = __name__, path: list[str] | None = None) -> list[str]:
    """The dotted names of the modules under `package` (its folders `path`) that may hold rules."""
    names = []
    for info in pkgutil.iter_modules(__path__ if path is None else path, prefix=f"{package}."):
        if info.name.rpartition(".")[2].startswith("_"):
            continue
        if info.ispkg:
            module = importlib.import_module(info.name)
            names.extend(rule_modules(info.name, list(module.__path__)))
        names.append(info.name)
    return names


def discover_rules(modules: list[str] | None = None) -> tuple[Rule, ...]:
    """Every rule in `RULES` of the rule modules (default: all of this package's), sorted by code;
    codes and names are unique."""
    rules: list[Rule] = []
    for name in rule_modules() if modules is None else modules:
        rules.extend(getattr(importlib.import_module(name), "RULES", ()))
    rules.sort(key=lambda rule: rule.code)
    for attribute in ("code", "name"):
        values = [getattr(rule, attribute) for rule in rules]
        duplicates = {value for value in values if values.count(value) > 1}
        if duplicates:
            raise RuntimeError(f"rule {attribute}s registered twice: {sorted(duplicates)}")
    return tuple(rules)
