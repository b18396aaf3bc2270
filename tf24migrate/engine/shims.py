"""Compatibility shims: code that guards the old API, which rules leave alone.

A `try` whose handlers catch ImportError, ModuleNotFoundError or AttributeError, and an `if`
(statement or conditional expression) whose test calls `hasattr`/`getattr` or looks at TensorFlow's version (`tf.__version__`,
`tf.version.VERSION`, a project constant such as `TF_VERSION`, a flag naming a release such as
`IS_PREV_TF_2_4_0`, a name the file binds from the version, `version_names`; a name saying
version compared with a version-like string), as ruff's NumPy 2 rule does; the fallback of
`getattr(x, "new", None) or x.old`; or an `if` that tests whether an internal module of
TensorFlow imported (`keras_tensor is not None`, after `try: from tensorflow.python.keras.engine
import keras_tensor` and `except ImportError: keras_tensor = None`): internal modules come and go
with the releases, so that test tells the release as a version does (`optional_internals`).
Where an `if` compares TensorFlow's version itself with a string, the branch TF 2.4.0 takes is
checked as any code and only the other is left alone (`taken_on_tf24`).
"""

from __future__ import annotations

import ast
import itertools
import re
import textwrap
from collections.abc import Callable, Iterator

import libcst as cst

from tf24migrate.rules.names import dotted_parts, last_name
from tf24migrate.rules.text import parse_python, parsed_or_none

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
# A name that says version (`cur_tf_ver`, `VERSION`), compared with a version-like string ("2.0.0").
VERSION_WORD = re.compile(r"(?:^|_)ver(?:sion)?(?:_|$)", re.IGNORECASE)
VERSION_STRING = re.compile(r"\d+\.\d+(?:\.\d+)?(?:(?:a|b|rc)\d+)?$")
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


def _mentions_version_check(node: cst.CSTNode, versions: frozenset[str] = frozenset()) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            parts = dotted_parts(current.func)
            if parts and parts[-1] in ("hasattr", "getattr"):
                return True
        if isinstance(current, cst.Name) and (
            VERSION_CONSTANT.match(current.value)
            or VERSION_FLAG.search(current.value)
            or current.value in versions
        ):
            return True
        if isinstance(current, cst.Attribute) and (
            VERSION_FLAG.search(current.attr.value) or current.attr.value in versions
        ):
            return True
        if (
            isinstance(current, cst.Attribute)
            and current.attr.value in VERSION_ATTRIBUTES
            and any(TENSORFLOW_NAME.match(part) for part in dotted_parts(current.value) or ())
        ):
            return True
        if isinstance(current, cst.Comparison) and _compares_a_version_name(current):
            return True
        stack.extend(current.children)
    return False


def _compares_a_version_name(comparison: cst.Comparison) -> bool:
    """`cur_tf_ver == "2.0.0"`, `self.version < "2.2"`: a name that says version (a word `ver`
    or `version`) compared with a version-like string. Any other string (`mode == "2.0.0"`) is
    not TensorFlow's version."""
    sides = [comparison.left, *(target.comparator for target in comparison.comparisons)]
    named = any(VERSION_WORD.search(parts[-1]) for side in sides if (parts := dotted_parts(side)))
    return named and any(
        isinstance(side, cst.SimpleString) and VERSION_STRING.match(str(side.evaluated_value))
        for side in sides
    )


def _falls_back(handler_text: str) -> bool:
    """Whether an `except` clause (its original text, which the plan may have left out of the
    tree LibCST parsed) does more than raise again or pass: binds a fallback, warns and goes on."""
    try:
        tree = parse_python("try:\n    pass\n" + textwrap.dedent(handler_text))
    except (SyntaxError, ValueError, RecursionError):
        return True  # unknown: a guard, as the `try` says
    assert isinstance(tree, ast.Module)
    handlers = tree.body[0].handlers if isinstance(tree.body[0], ast.Try) else []
    body = handlers[0].body if handlers else []
    return not all(isinstance(statement, (ast.Raise, ast.Pass)) for statement in body)


def guard_of(
    nodes: list[cst.CSTNode],
    text_of: Callable[[cst.CSTNode], str],
    optional: frozenset[str] = frozenset(),
    versions: frozenset[str] = frozenset(),
) -> str | None:
    """How the node ending `nodes` (it and the nodes around it, outermost first) is guarded: "version" behind an
    `if` testing hasattr or TensorFlow's version; "fallback" in the body of a `try` one of whose
    handlers catches ImportError/ModuleNotFoundError/AttributeError and does more than raise or
    pass (a guarded import with a fallback); "shim" elsewhere in a shim (a handler of such a `try`,
    its `else` or `finally`); None outside shims, and in the body of a `try` whose handlers only
    raise again (nothing falls back: the code fails as unguarded code does). `text_of` gives a
    node's original text; `optional`: the file's `optional_internals`; `versions`: its
    `version_names`. The fallback of `getattr(x, "new", None) or x.old` is "version" too."""
    found = None
    for parent, child in itertools.pairwise(nodes):
        if not is_shim(parent, optional, versions):
            continue
        if isinstance(parent, (cst.If, cst.IfExp)):
            return "version"
        if isinstance(parent, cst.BooleanOperation):
            if child is parent.right:
                return "version"
            continue
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


def is_shim(
    node: cst.CSTNode, optional: frozenset[str] = frozenset(), versions: frozenset[str] = frozenset()
) -> bool:
    """A `try` catching ImportError/AttributeError, or an `if` (a statement or a conditional
    expression, `m.new if hasattr(m, "new") else m.old`) testing hasattr or a version (also
    through one of the file's `versions`, `version_names`), or whether one of the `optional`
    names (`optional_internals`) was imported; or `getattr(x, "new", None) or x.old`, whose right
    operand alone is left alone: it runs only where `x` lacks the new name."""
    if isinstance(node, cst.Try):
        return any(_exception_names(h) & SHIM_EXCEPTIONS for h in node.handlers)
    if isinstance(node, (cst.If, cst.IfExp)):
        return _mentions_version_check(node.test, versions) or (
            bool(optional) and _tests_import(node.test, optional)
        )
    if isinstance(node, cst.BooleanOperation):
        return isinstance(node.operator, cst.Or) and _is_getattr_with_default(node.left)
    return False


def _is_getattr_with_default(node: cst.BaseExpression) -> bool:
    """`getattr(x, "name", default)`: None (or another default) where `x` lacks the name."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "getattr"
        and len(node.args) == 3
        and isinstance(node.args[1].value, cst.SimpleString)
    )


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
    tree = parsed_or_none(source)
    if tree is None:
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


def version_names(source: str) -> frozenset[str]:
    """The names, and attribute names (`self.cur_tf_ver`), the file binds to a value read from
    TensorFlow's version: `TF_VER = tuple(map(int, tf.__version__.split(".")[:2]))`, `IS_TF20 =
    tf.__version__ == "2.0.0"`, `self.cur_tf_ver = check_tf_version()` where the file's
    `check_tf_version` returns `tf.__version__`; each name of an unpacking (`major, minor =
    map(int, tf.__version__.split(".")[:2])`); also from such a name (`MAJOR = TF_VER[0]`). An
    `if` testing one of them tests the version (`is_shim`). A container display (`{"version":
    tf.__version__, ...}`) is not a version, nor what the file binds to it."""
    if "__version__" not in source and "VERSION" not in source:
        return frozenset()
    tree = parsed_or_none(source)
    if tree is None:
        return frozenset()
    functions: set[str] = set()
    found: set[str] = set()
    nodes = list(ast.walk(tree))
    changed = True
    while changed:  # a name bound from another, a function returning one: until nothing is added
        changed = False
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in functions:
                returns = [n.value for n in ast.walk(node) if isinstance(n, ast.Return) and n.value]
                if any(_reads_version(value, found, functions) for value in returns):
                    functions.add(node.name)
                    changed = True
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                if not _reads_version(node.value, found, functions):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for name in (name for target in targets for name in _bound_names(target)):
                    if name not in found:
                        found.add(name)
                        changed = True
    return frozenset(found)


def _bound_names(target: ast.expr) -> Iterator[str]:
    """The names, and attribute names, an assignment target binds, also each of an unpacking:
    `major, minor = map(int, tf.__version__.split(".")[:2])`."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _bound_names(element)
    elif isinstance(target, ast.Starred):
        yield from _bound_names(target.value)
    elif isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Attribute):
        yield target.attr


def _reads_version(value: ast.expr, names: set[str], functions: set[str]) -> bool:
    """Whether `value` is computed from TensorFlow's version: it reads `tf.__version__`
    (`tensorflow.__version__`, `tf.version.VERSION`), one of `names`, or calls one of
    `functions`; not a container display holding it among other things."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.Tuple)):
        return False
    for node in ast.walk(value):
        if isinstance(node, ast.Attribute):
            if node.attr in VERSION_ATTRIBUTES and _roots_in_tensorflow(node.value):
                return True
            if node.attr in names and isinstance(node.value, ast.Name) and node.value.id == "self":
                return True
        if isinstance(node, ast.Name) and node.id in names:
            return True
        if isinstance(node, ast.Call) and last_name(node.func) in functions:
            return True
    return False


def _roots_in_tensorflow(node: ast.expr) -> bool:
    """`tf`, `tensorflow`, `tf.version`: an expression naming TensorFlow or one of its modules."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and TENSORFLOW_NAME.match(node.id) is not None


# The release the migration's code runs on: the branch of a version check it takes is checked.
RUNNING_RELEASE = "2.4.0"
_PARSERS = {"parse", "Version", "LooseVersion", "StrictVersion", "parse_version"}
_COMPARE: dict[type[cst.BaseCompOp], Callable[[object, object], bool]] = {
    cst.Equal: lambda a, b: a == b,
    cst.NotEqual: lambda a, b: a != b,
    cst.LessThan: lambda a, b: a < b,  # type: ignore[operator]
    cst.LessThanEqual: lambda a, b: a <= b,  # type: ignore[operator]
    cst.GreaterThan: lambda a, b: a > b,  # type: ignore[operator]
    cst.GreaterThanEqual: lambda a, b: a >= b,  # type: ignore[operator]
}


def version_bindings(source: str) -> dict[str, cst.BaseExpression]:
    """The module-level names the file binds once, to an expression reading TensorFlow's version:
    `IS_TF20 = tf.__version__ == "2.0.0"`, `TF_VERSION = tf.__version__`; each to its expression,
    for `taken_on_tf24` to read a test of the name as a test of the expression."""
    if "__version__" not in source and "VERSION" not in source:
        return {}
    tree = parsed_or_none(source)
    if tree is None:
        return {}
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
    bound: dict[str, cst.BaseExpression] = {}
    for statement in tree.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target = statement.targets[0]
        text = ast.get_source_segment(source, statement.value)
        if (
            isinstance(target, ast.Name)
            and stores.get(target.id) == 1
            and text
            and _reads_version(statement.value, set(), set())
        ):
            try:
                bound[target.id] = cst.parse_expression(text)
            except cst.ParserSyntaxError:
                continue
    return bound


def taken_on_tf24(
    test: cst.BaseExpression, bound: dict[str, cst.BaseExpression] | None = None
) -> bool | None:
    """Whether an `if` testing TensorFlow's version directly takes its body on TF 2.4.0 (True),
    its `else` (False), or None where the test is not read so: `tf.__version__` (or
    `tf.version.VERSION`) compared with a string, as Python compares strings; `.startswith(...)`;
    both sides through `version.parse`/`LooseVersion`, compared as versions; `not`, `and`, `or`
    of these; a module-level name `bound` once to such a test or to the version
    (`version_bindings`). Other names bound from the version are not followed (None: both
    branches are left)."""
    bound = bound or {}
    if isinstance(test, cst.Name) and test.value in bound:
        return taken_on_tf24(bound[test.value], {k: v for k, v in bound.items() if k != test.value})
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = taken_on_tf24(test.expression, bound)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        left, right = taken_on_tf24(test.left, bound), taken_on_tf24(test.right, bound)
        if isinstance(test.operator, cst.And):
            return False if False in (left, right) else None if None in (left, right) else True
        return True if True in (left, right) else None if None in (left, right) else False
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Attribute)
        and test.func.attr.value == "startswith"
    ):
        prefix = _string(test.args[0].value) if len(test.args) == 1 else None
        if prefix is not None and _version_value(test.func.value, bound) == RUNNING_RELEASE:
            return RUNNING_RELEASE.startswith(prefix)
        return None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        compare = _COMPARE.get(type(target.operator))
        value, other = _version_value(test.left, bound), _version_value(target.comparator, bound)
        if compare is None or value is None or other is None or type(value) is not type(other):
            return None
        return bool(compare(value, other))
    return None


def _string(node: cst.BaseExpression) -> str | None:
    value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    return value if isinstance(value, str) else None


def _is_tensorflow_version(node: cst.BaseExpression | None) -> bool:
    parts = (dotted_parts(node) if node is not None else None) or [""]
    return parts[-1] in VERSION_ATTRIBUTES and TENSORFLOW_NAME.match(parts[0]) is not None


def _version_value(node: cst.BaseExpression, bound: dict[str, cst.BaseExpression]) -> object:
    """TensorFlow 2.4.0's version (also through a name `bound` to it), or a string literal, as
    a string; either through a version parser, as a `packaging` version; None for anything else."""
    if _is_tensorflow_version(node) or (
        isinstance(node, cst.Name) and _is_tensorflow_version(bound.get(node.value))
    ):
        return RUNNING_RELEASE
    if isinstance(node, cst.SimpleString):
        return _string(node)
    if (
        isinstance(node, cst.Call)
        and len(node.args) == 1
        and (dotted_parts(node.func) or [""])[-1] in _PARSERS
    ):
        text = _version_value(node.args[0].value, bound)
        if isinstance(text, str):
            from packaging.version import InvalidVersion, Version

            try:
                return Version(text)
            except InvalidVersion:
                return None
    return None
