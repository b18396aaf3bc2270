"""Compatibility shims: code that guards the old API, which rules leave alone.

A `try` whose handlers catch ImportError, ModuleNotFoundError or AttributeError, and an `if` whose
test calls `hasattr`/`getattr` or looks at TensorFlow's version (`tf.__version__`,
`tf.version.VERSION`, a project constant such as `TF_VERSION`, a flag naming a release such as
`IS_PREV_TF_2_4_0`), as ruff's NumPy 2 rule does.
"""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from collections.abc import Callable

import libcst as cst

from tf24migrate.rules.names import dotted_parts

SHIM_EXCEPTIONS = {"ImportError", "ModuleNotFoundError", "AttributeError"}
VERSION_WORDS = {"__version__", "VERSION", "LooseVersion", "parse_version", "Version"}  # TF 1 evidence
# A version read from TensorFlow (`tf.__version__`, `tf.version.VERSION`): a comparator alone
# (`LooseVersion`, `Version`: `isinstance(item, Version)`) tests nothing of TensorFlow.
VERSION_ATTRIBUTES = {"__version__", "VERSION"}
TENSORFLOW_NAME = re.compile(r"_*(tf|tensorflow)\d*$", re.IGNORECASE)
# A project's own constant for the TensorFlow version: `TF_VERSION`, `_tf_version`, `TF2_VERSION`.
VERSION_CONSTANT = re.compile(r"_*(tf|tensorflow)\d*_?version", re.IGNORECASE)
# A project's own flag naming a TensorFlow release, major and minor: `IS_PREV_TF_2_4_0`,
# `TF_2_4_OR_LATER`, `compat.IS_PREV_TF_2_4_0` (NeurST's). Not `is_tf2`: TF 2 code must be checked.
VERSION_FLAG = re.compile(r"(?:^|_)(?:tf|tensorflow)_?\d+_\d+(?:_\d+)*(?:_|$)", re.IGNORECASE)


def _exception_names(handler: cst.ExceptHandler) -> set[str]:
    if handler.type is None:
        return set()
    types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    names = set()
    for item in types:
        node = item.value if isinstance(item, cst.Element) else item
        parts = dotted_parts(node)
        if parts:
            names.add(parts[-1])
    return names


def _mentions_version_check(node: cst.CSTNode) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            parts = dotted_parts(current.func)
            if parts and parts[-1] in ("hasattr", "getattr"):
                return True
        if isinstance(current, cst.Name) and (
            VERSION_CONSTANT.match(current.value) or VERSION_FLAG.search(current.value)
        ):
            return True
        if isinstance(current, cst.Attribute) and VERSION_FLAG.search(current.attr.value):
            return True
        if (
            isinstance(current, cst.Attribute)
            and current.attr.value in VERSION_ATTRIBUTES
            and any(TENSORFLOW_NAME.match(part) for part in dotted_parts(current.value) or ())
        ):
            return True
        stack.extend(current.children)
    return False


def _falls_back(handler_text: str) -> bool:
    """Whether an `except` clause (its original text, which the plan may have left out of the
    tree LibCST parsed) does more than raise again or pass: binds a fallback, warns and goes on."""
    try:
        tree = ast.parse("try:\n    pass\n" + textwrap.dedent(handler_text))
    except SyntaxError:
        return True  # unknown: a guard, as the `try` says
    handlers = tree.body[0].handlers if isinstance(tree.body[0], ast.Try) else []
    body = handlers[0].body if handlers else []
    return not all(isinstance(statement, (ast.Raise, ast.Pass)) for statement in body)


def guard_of(nodes: list[cst.CSTNode], text_of: Callable[[cst.CSTNode], str]) -> str | None:
    """How the node ending `nodes` (it and the nodes around it, outermost first) is guarded: "version" behind an
    `if` testing hasattr or TensorFlow's version; "fallback" in the body of a `try` one of whose
    handlers catches ImportError/ModuleNotFoundError/AttributeError and does more than raise or
    pass (a guarded import with a fallback); "shim" elsewhere in a shim (a handler of such a `try`,
    its `else` or `finally`); None outside shims, and in the body of a `try` whose handlers only
    raise again (nothing falls back: the code fails as unguarded code does). `text_of` gives a
    node's original text."""
    found = None
    for parent, child in itertools.pairwise(nodes):
        if not is_shim(parent):
            continue
        if isinstance(parent, cst.If):
            return "version"
        assert isinstance(parent, cst.Try)
        if child is not parent.body:
            found = "shim"
        elif any(
            _falls_back(text_of(handler))
            for handler in parent.handlers
            if _exception_names(handler) & SHIM_EXCEPTIONS
        ):
            found = found or "fallback"
    return found


def is_shim(node: cst.CSTNode) -> bool:
    """A `try` catching ImportError/AttributeError, or an `if` testing hasattr or a version."""
    if isinstance(node, cst.Try):
        return any(_exception_names(h) & SHIM_EXCEPTIONS for h in node.handlers)
    if isinstance(node, cst.If):
        return _mentions_version_check(node.test)
    return False
