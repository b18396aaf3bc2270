"""Compatibility shims: code that guards the old API, which rules leave alone.

A `try` whose handlers catch ImportError, ModuleNotFoundError or AttributeError, and an `if` whose
test calls `hasattr`/`getattr` or looks at TensorFlow's version (`tf.__version__`,
`tf.version.VERSION`, a project constant such as `TF_VERSION`, a flag naming a release such as
`IS_PREV_TF_2_4_0`), as ruff's NumPy 2 rule does; or tests whether an internal module of
TensorFlow imported (`keras_tensor is not None`, after `try: from tensorflow.python.keras.engine
import keras_tensor` and `except ImportError: keras_tensor = None`): internal modules come and go
with the releases, so that test tells the release as a version does (`optional_internals`).
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


def guard_of(
    nodes: list[cst.CSTNode], text_of: Callable[[cst.CSTNode], str], optional: frozenset[str] = frozenset()
) -> str | None:
    """How the node ending `nodes` (it and the nodes around it, outermost first) is guarded: "version" behind an
    `if` testing hasattr or TensorFlow's version; "fallback" in the body of a `try` one of whose
    handlers catches ImportError/ModuleNotFoundError/AttributeError and does more than raise or
    pass (a guarded import with a fallback); "shim" elsewhere in a shim (a handler of such a `try`,
    its `else` or `finally`); None outside shims, and in the body of a `try` whose handlers only
    raise again (nothing falls back: the code fails as unguarded code does). `text_of` gives a
    node's original text; `optional`: the file's `optional_internals`."""
    found = None
    for parent, child in itertools.pairwise(nodes):
        if not is_shim(parent, optional):
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


def is_shim(node: cst.CSTNode, optional: frozenset[str] = frozenset()) -> bool:
    """A `try` catching ImportError/AttributeError, or an `if` testing hasattr or a version, or
    whether one of the `optional` names (`optional_internals`) was imported."""
    if isinstance(node, cst.Try):
        return any(_exception_names(h) & SHIM_EXCEPTIONS for h in node.handlers)
    if isinstance(node, cst.If):
        return _mentions_version_check(node.test) or (bool(optional) and _tests_import(node.test, optional))
    return False


def _tests_import(test: cst.BaseExpression, optional: frozenset[str]) -> bool:
    """Whether `test` is, or joins with `and` / `or`, a test that an `optional` name is bound to
    its module: `name`, `not name`, `name is None`, `name is not None`."""
    if isinstance(test, cst.BooleanOperation):
        return _tests_import(test.left, optional) or _tests_import(test.right, optional)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _tests_import(test.expression, optional)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, (cst.Is, cst.IsNot)) and isinstance(target.comparator, cst.Name):
            return target.comparator.value == "None" and _tests_import(test.left, optional)
        return False
    return isinstance(test, cst.Name) and test.value in optional


def optional_internals(source: str) -> frozenset[str]:
    """The names a `try` binds by importing an internal module of TensorFlow (`tensorflow.python`
    ...) and one of its ImportError / ModuleNotFoundError handlers binds to a fallback (`name =
    None`): a module some releases have and others not."""
    if "tensorflow.python" not in source or (
        "ImportError" not in source and "ModuleNotFoundError" not in source
    ):
        return frozenset()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        imported = {
            alias.asname or alias.name.split(".")[0]
            for statement in node.body
            if isinstance(statement, ast.ImportFrom)
            and (statement.module or "").startswith("tensorflow.python")
            for alias in statement.names
        }
        for handler in node.handlers:
            if not _catches_import_error(handler.type):
                continue
            for statement in handler.body:
                if isinstance(statement, ast.Assign):
                    found.update(
                        t.id for t in statement.targets if isinstance(t, ast.Name) and t.id in imported
                    )
    return frozenset(found)


def _catches_import_error(handler_type: ast.expr | None) -> bool:
    types = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    return any(isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError") for t in types)
