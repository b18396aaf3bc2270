"""The rules of tf24migrate, one module per TensorFlow area, installed as `tf24migrate.transforms`.

Each module lists its rules in `RULES`; every module of this package is found and registered
automatically, so adding a rule is adding a row (or a class) to the module of its area.
"""

from __future__ import annotations

import importlib
import pkgutil


def discover_rules():
    """Every rule of every module in this package, sorted by code; codes and names are unique."""
    rules = []
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        rules.extend(getattr(module, "RULES", ()))
    rules.sort(key=lambda rule: rule.code)
    for attribute in ("code", "name"):
        values = [getattr(rule, attribute) for rule in rules]
        duplicates = {value for value in values if values.count(value) > 1}
        if duplicates:
            raise RuntimeError(f"rule {attribute}s registered twice: {sorted(duplicates)}")
    return tuple(rules)
