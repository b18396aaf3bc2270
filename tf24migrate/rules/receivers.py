"""Which TensorFlow class a method is called on, as the file shows it: the rules that look a method
up in the releases' data (`model.release_diff.METHODS`) ask here what `receiver.method(...)` is.

What counts:
- `self.m(...)` in a method (not a static or class method) of a class of the file, and
  `super().m(...)` there: the class's bases resolve, through the file's imports, to a public
  TensorFlow class, directly or through classes of the file (`class Base(tf.keras.layers.Layer)`,
  `class Scale(Base)`); not when the class (for `self`) or a class of the file in between defines
  `m` itself, when a base cannot be resolved (imported from elsewhere, computed), or when the bases
  reach more than one TensorFlow class (which one's `m` is called is not visible);
- `x.m(...)` where `x` is bound in the same scope, once, to a call of a public TensorFlow class
  (`layer = tf.keras.layers.Dense(3)`).

A rule using this makes these lines visible to itself with `MethodCallLines` (the call, the class
headers, the definitions of `m`, the binding of `x`).
"""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import is_tensorflow

_BODIES = (cst.IndentedBlock, cst.SimpleStatementSuite)
_NOT_METHODS = frozenset({"staticmethod", "classmethod"})


class _Unresolved(Exception):
    """A base of a class cannot be told: the class's method is not known."""


def tensorflow_class_of(ctx: RuleContext, call: cst.Call) -> tuple[str, str] | None:
    """`(qualified TensorFlow class, evidence)` of the receiver of `call`, a `receiver.m(...)`,
    or None when the file does not show it to be an instance of one public class (see the module
    docstring). The evidence starts with the code it names, so it can stand as a sentence."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return None
    method, receiver = func.attr.value, func.value
    if isinstance(receiver, cst.Call) and _is_super(ctx, receiver):
        return _of_class(ctx, method, "", own=False)
    if isinstance(receiver, cst.Name) and _is_self(ctx, receiver):
        return _of_class(ctx, method, receiver.value, own=True)
    if isinstance(receiver, cst.Name):
        return _constructed(ctx, receiver)
    return None


def _enclosing_method(ctx: RuleContext) -> tuple[cst.FunctionDef, cst.ClassDef] | None:
    """The function the node being left is in, and its class, when it is a method of one."""
    ancestors = ctx.ancestors
    for index, node in enumerate(ancestors):
        if isinstance(node, cst.Lambda):
            return None
        if isinstance(node, cst.FunctionDef):
            outer = next((n for n in ancestors[index + 1 :] if not isinstance(n, _BODIES)), None)
            if not isinstance(outer, cst.ClassDef):
                return None
            decorators = {_decorator_name(d.decorator) for d in node.decorators}
            return None if decorators & _NOT_METHODS else (node, outer)
    return None


def _decorator_name(node: cst.BaseExpression) -> str:
    return node.value if isinstance(node, cst.Name) else ""


def _is_self(ctx: RuleContext, name: cst.Name) -> bool:
    """Whether `name` is the first parameter of the method it is in, not rebound since."""
    found = _enclosing_method(ctx)
    if found is None:
        return False
    params = found[0].params.params
    if not params or params[0].name.value != name.value:
        return False
    binding = ctx.binding(name.value)
    return binding is not None and binding.node is params[0]


def _is_super(ctx: RuleContext, call: cst.Call) -> bool:
    """`super()` (or `super(Class, self)`) in a method, with `super` not rebound."""
    return (
        isinstance(call.func, cst.Name)
        and call.func.value == "super"
        and ctx.binding("super") is None
        and len(call.args) in (0, 2)
        and _enclosing_method(ctx) is not None
    )


def _of_class(ctx: RuleContext, method: str, receiver: str, *, own: bool) -> tuple[str, str] | None:
    """The TensorFlow class whose `method` `receiver` (`self`; "": `super()`) reaches from the
    class of the method the node being left is in; with `own`, the class's own `method` counts."""
    found = _enclosing_method(ctx)
    if found is None:
        return None
    cls = found[1]
    if own and _defines(cls, method):
        return None
    try:
        classes = _tensorflow_bases(ctx, cls, method, {cls})
    except _Unresolved:
        return None
    if len(classes) != 1:
        return None
    (qualified,) = classes
    name, base = cls.name.value, _spelled(qualified)
    if receiver:
        return qualified, f"`{receiver}` is a `{name}`, derived from `{base}`"
    return qualified, f"`super()` of `{name}` reaches `{base}`"


def _defines(cls: cst.ClassDef, method: str) -> bool:
    """Whether the body of `cls` binds `method` (a `def`, or an assignment)."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else (cls.body,)
    for statement in body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == method:
            return True
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = (
                    [t.target for t in small.targets]
                    if isinstance(small, cst.Assign)
                    else [small.target]
                    if isinstance(small, (cst.AnnAssign, cst.AugAssign))
                    else []
                )
                if any(isinstance(t, cst.Name) and t.value == method for t in targets):
                    return True
    return False


def _tensorflow_bases(ctx: RuleContext, cls: cst.ClassDef, method: str, seen: set[cst.ClassDef]) -> set[str]:
    """The public TensorFlow classes the bases of `cls` reach, through classes of the file that
    do not define `method`; `_Unresolved` when a base cannot be told, or a class between defines it."""
    found: set[str] = set()
    for base in cls.bases:
        if base.keyword is not None or base.star:
            continue  # `metaclass=...`
        qualified = ctx.qualified_name(base.value)
        if qualified is not None:
            if not is_tensorflow(qualified):
                raise _Unresolved
            found.add(qualified)
            continue
        if not isinstance(base.value, cst.Name):
            raise _Unresolved
        binding = ctx.binding(base.value.value)
        if binding is None and base.value.value == "object":
            continue
        parent = binding.node if binding is not None else None
        if not isinstance(parent, cst.ClassDef) or parent in seen or _defines(parent, method):
            raise _Unresolved
        found |= _tensorflow_bases(ctx, parent, method, seen | {parent})
    return found


def _constructed(ctx: RuleContext, receiver: cst.Name) -> tuple[str, str] | None:
    """The TensorFlow class `receiver` is bound to a construction of, once in its scope."""
    if not ctx.is_reference(receiver):
        return None
    binding = ctx.binding(receiver.value)
    value = binding.node.value if binding is not None and isinstance(binding.node, cst.Assign) else None
    if not isinstance(value, cst.Call) or len(binding.node.targets) != 1:  # type: ignore[union-attr]
        return None
    qualified = ctx.qualified_name(value.func)
    if not is_tensorflow(qualified) or _bindings_in_scope(ctx, receiver.value) != 1:
        return None
    assert qualified is not None
    return qualified, f"`{receiver.value}` is built by `{_spelled(qualified)}(...)`"


def _bindings_in_scope(ctx: RuleContext, name: str) -> int:
    """How many times the text of the scope the node being left is in may bind `name` (at least:
    a keyword argument `name=` or an item `d[name] = ...` count too, so more is never fewer)."""
    scope = next((n for n in ctx.ancestors if isinstance(n, (cst.FunctionDef, cst.Lambda))), None)
    text = "\n".join(ctx.node_lines(scope)[0]) if scope is not None else ctx.source
    escaped = re.escape(name)
    assigned = rf"(?<![\w.]){escaped}[ \t]*(?:[,)\]:][^\n=]*)?(?<![=!<>])=(?!=)"
    other = rf"\b(?:for|as|global|nonlocal|import)\b[^\n:=]*(?<![\w.]){escaped}\b|(?<![\w.]){escaped}[ \t]*:="
    return len(re.findall(rf"{assigned}|{other}", text))


def _spelled(qualified: str) -> str:
    return qualified.replace("tensorflow.", "tf.", 1)
