"""Evidence, in the file itself, that an expression is a Keras symbolic value.

The TF 2.4 functional-API changes (TF2421x) concern only Keras symbolic values: the results of
`tf.keras.Input(...)` / `keras.layers.Input(...)`, what is computed from them while a functional
model is built, and the `.input(s)` / `.output(s)` of a model or layer. A rule of that family
reports a site only when `symbolic_evidence` finds one of these in the file; a `tf.function`
argument, a loss normaliser or a shape dimension carries none, so it is not reported.

What counts (each cheap, and each visible to the rule because the plan follows the names bound on
the lines holding `EVIDENCE_TRIGGERS` to the lines using them, `Rule.follows`):
- a name bound in the same scope by `name = tf.keras.Input(...)` (any spelling of
  `tensorflow.keras.Input` / `tensorflow.keras.layers.Input`);
- a name bound from an expression that uses such a name (`h = Dense(8)(inputs)`, `h = inputs * 2`),
  followed through up to `_DEPTH` assignments; attributes of a symbolic value (`inputs.shape`) and
  lambda bodies do not count;
- a name a comprehension's or a loop's `for` binds alone over a model's `.inputs` / `.outputs`,
  a list or tuple of symbolic values, or the `.values()` of a dictionary of them
  (`collection_evidence`);
- `.input`, `.inputs`, `.output` or `.outputs` of a Keras model or layer: a receiver bound to a
  `tf.keras.*` construction, a `.get_layer(...)` / `.layers[...]` result, or a receiver named as
  one (`model`, `base_model`, `self.model`, `layer`, `encoder_layer`, `Model`, `LAYER`). Graph operations
  (`op.outputs[0]`) are not models: their tensors keep their `:0` names and gradients;
- what `_flow.symbolic_flow` finds, reading the whole source with `ast`: a parameter of a plain
  function that a call of the file passes a symbolic value (`def block(x): ...` then
  `block(inputs)`), what a function of the file returns (`inputs, outputs = build()`), an
  attribute of `self` its class always gives a symbolic value, and a name whose binding the rule
  cannot see (the plan left it out) or whose chain of assignments is longer than `_DEPTH`;
- what a call is given `tf.keras.Input(...)` straight as an argument returns
  (`outputs = block.build(hp, tf.keras.Input((3,)))`), and the items of `nest.flatten(x)`
  (`tf.nest`, `tensorflow.python.util.nest`) of such a value (`nest.flatten(outputs)[0]`).

Nothing is symbolic where Keras builds graph tensors instead (`builds_graph_tensors`): in a `with`
that makes a graph the default (`tf.compat.v1.Session(...)`, `graph.as_default()`), after an
`if` of the same function that raises when TF 2 behaviour is on (`if tf2.enabled(): raise ...`) or
after a statement of its block that makes a graph placeholder (`tf.compat.v1.placeholder(...)`,
which raises under eager execution: what follows runs only in a graph; not Keras's backend
`placeholder`, which runs eagerly), and once eager execution is off (`eager_disabled`): after
`tf.compat.v1.disable_eager_execution()` or `disable_v2_behavior()` in the same function, and
everywhere but the module's statements before it when the module calls it (at its top level or in
its `if __name__ == "__main__":` block). There
Keras's values are graph tensors on TF 2.4 too (executed on 2.4.0), which keep `.op`, `.graph` and
`:0` names.

Where the code copes with the error itself, a rule may say nothing: `caught` tells whether the node
being left is in the body of a `try` of its function that catches it (`except AttributeError:
pass` around `tensor.graph`), and a call in such a `try` gives its function's parameter no
evidence (`_flow`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst

from tf24migrate.rules.base import IMPORTS_TENSORFLOW
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import ast_import_aliases, ast_qualified_name, dotted_parts, last_name
from tf24migrate.rules.needles import LINE_START, Pattern, any_of, word
from tf24migrate.rules.text import of_the_last_text, parsed_or_none

from .._text import assigned_value
from ._flow import (
    CATCH_ALL,
    INPUTS,
    KERAS_NAME,
    KERAS_NAMES,
    SYMBOLIC_ATTRIBUTES,
    TRACERS,
    blocks,
    symbolic_flow,
    symbolic_parameters,
)

# What every line that can hold evidence holds (`Input` as a word, `.input(s)` / `.output(s)` as
# attributes): rules of this family follow names from them (`Rule.follows`).
INPUT_WORD = word("Input")
EVIDENCE_TRIGGERS = (INPUT_WORD, Pattern(r"\.(?:in|out)puts?\b", ".input", ".output"))
_DEPTH = 3
# What a file holds where this module can find evidence, which a rule of this family requires: every
# `tensorflow.keras` name and `Input` needs an import of TensorFlow's public API; without one, only a
# `.input(s)` / `.output(s)` whose receiver is named as a model or layer (`base_model.output`),
# indexes or calls one (`model.layers[0].output`, `self.get_layer("x").output`), or is continued from
# a line before (`).output`, `].output` or `.output` first on a line; `model.\` then `output`).
_IO = r"[ \t]*\.(?:in|out)puts?\b"
_NAMED = "|".join(KERAS_NAMES)
_KERAS_IO = Pattern(
    rf"(?:{_NAMED})\w*{_IO}|(?:{_NAMED})[^\n\r]*[)\]]{_IO}|{LINE_START}[ \t]*[)\]]?{_IO}"
    rf"|(?:(?:{_NAMED})\w*|[)\]])[ \t]*\.\\\r?(?m:$)",
    ".input",
    ".output",
    ".\\",
)
EVIDENCE_IN_FILE = any_of(*IMPORTS_TENSORFLOW, _KERAS_IO)
# What every piece of evidence holds in the file's text: `Input` as code (`layers.Input`, `Input(`,
# `Input as`; not the word in prose, as in "Input tensor"), or a `.input(s)` / `.output(s)` attribute
# (also after a `\` continuation). Where none is, no value is symbolic: a rule of this family
# requires it besides `EVIDENCE_IN_FILE` (a file of TF code full of `name=`, `.op` or `Lambda`
# holds no functional model).
_INPUT_CODE = Pattern(r"\.Input\b|\bInput[ \t]*\(|\bInput[ \t]+as\b", "Input")
EVIDENCE_WORDS = any_of(_INPUT_CODE, EVIDENCE_TRIGGERS[1], _KERAS_IO)


def walk(
    node: cst.CSTNode, hidden: frozenset[str] = frozenset()
) -> Iterator[tuple[cst.CSTNode, frozenset[str]]]:
    """Yield (node, names hidden by enclosing lambda parameters) for `node` and the parts of it
    that can carry a symbolic value.

    Not entered: lambda parameters; the receiver of an attribute (`x` in `x.shape`: the shape or
    dtype of a symbolic tensor is not symbolic itself); the function of a call (`model` in
    `model(x)`: calling a model on data gives real tensors); a comprehension's `for` clauses (its
    target binds a name, and its `in` gives the comprehension's value only through the target,
    which `_iterated` follows: `[tf.TensorSpec(t.shape) for t in model.inputs]` holds no symbolic
    value).
    """
    yield node, hidden
    if isinstance(node, cst.Lambda):
        params = {p.name.value for p in (*node.params.params, *node.params.kwonly_params)}
        yield from walk(node.body, hidden | params)
        return
    if isinstance(node, cst.Attribute):
        return
    for child in node.children:
        if (isinstance(node, cst.Call) and child is node.func) or (
            isinstance(node, cst.CompFor) and child is not node.inner_for_in
        ):
            continue
        yield from walk(child, hidden)


_SESSIONS = frozenset(
    {
        "tensorflow.compat.v1.Session",
        "tensorflow.compat.v1.InteractiveSession",
        "tensorflow.Session",
        "tensorflow.InteractiveSession",
    }
)
_GRAPHS = frozenset(
    {"tensorflow.Graph", "tensorflow.compat.v1.Graph", "tensorflow.compat.v1.get_default_graph"}
)
_GRAPH_NAME = re.compile("graph", re.IGNORECASE)
# A test that is true when TF 2 behaviour is on: `tf2.enabled()`, `is_tf2()`, `IS_TF2`, `tf.executing_eagerly()`.
_TF2_TEST = re.compile(r"tf_?2|executing_eagerly", re.IGNORECASE)
# A call that raises under eager execution (RuntimeError): `tf.compat.v1.placeholder(...)`,
# `array_ops.placeholder(...)`; not `placeholder_with_default`, which runs eagerly.
_PLACEHOLDER = re.compile(r"\bplaceholder[ \t]*\(")
# The placeholders that raise under eager execution; Keras's backend `placeholder` does not (it
# makes a `KerasTensor` on TF 2.4, executed).
_GRAPH_PLACEHOLDERS = frozenset(
    {
        "tensorflow.compat.v1.placeholder",
        "tensorflow.placeholder",
        "tensorflow.python.ops.array_ops.placeholder",
    }
)


def _makes_graph_default(ctx: RuleContext, item: cst.BaseExpression) -> bool:
    """Whether entering `item` in a `with` makes a graph the default one: a TF 1 session (it enters
    its graph) or a graph's `as_default()` (not a summary writer's nor a strategy's)."""
    if not isinstance(item, cst.Call):
        return False
    if ctx.qualified_name(item.func) in _SESSIONS:
        return True
    func = item.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "as_default"):
        return False
    receiver = func.value
    if isinstance(receiver, cst.Call):
        return ctx.qualified_name(receiver.func) in _GRAPHS
    parts = dotted_parts(receiver) or [""]
    return bool(_GRAPH_NAME.search(parts[-1]))


def _raises_under_tf2(statement: ast.stmt) -> bool:
    """Whether `statement` is `if <TF 2 behaviour is on>: ... raise ...` (no `else`, not `if not`)."""
    return (
        isinstance(statement, ast.If)
        and not statement.orelse
        and not (isinstance(statement.test, ast.UnaryOp) and isinstance(statement.test.op, ast.Not))
        and bool(_TF2_TEST.search(ast.unparse(statement.test)))
        and isinstance(statement.body[-1], ast.Raise)
    )


def _makes_placeholder(statement: ast.stmt, aliases: dict[str, str]) -> bool:
    """Whether `statement`, a simple one, makes a graph placeholder (`_GRAPH_PLACEHOLDERS`), which
    raises under eager execution."""
    return isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr)) and any(
        isinstance(node, ast.Call)
        and last_name(node.func) == "placeholder"
        and ast_qualified_name(node.func, aliases) in _GRAPH_PLACEHOLDERS
        for node in ast.walk(statement)
    )


@of_the_last_text
def _tf2_guarded(source: str) -> dict[str, frozenset[str]]:
    """Function name -> the source lines of its statements that run only when TF 2 behaviour is
    off: those after an `if` of the function that raises when it is on (`if tf2.enabled(): raise
    ...`, no `else`; not `if not ...`), or after a simple statement that makes a placeholder
    (`_PLACEHOLDER`), to the end of the block holding it. Read with `ast` from the whole source: the
    engine leaves the statements no rule's trigger is on out of the tree the rules see, and its
    positions are those of the text it parsed."""
    if not (_TF2_TEST.search(source) or _PLACEHOLDER.search(source)):
        return {}
    tree = parsed_or_none(source)
    if tree is None:
        return {}
    lines = source.splitlines()
    aliases = ast_import_aliases(tree)
    guarded: dict[str, set[str]] = {}
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for block in blocks(function):
            for statement in block:
                if _raises_under_tf2(statement) or _makes_placeholder(statement, aliases):
                    after = lines[(statement.end_lineno or statement.lineno) : block[-1].end_lineno]
                    guarded.setdefault(function.name, set()).update(after)
    return {name: frozenset(found) for name, found in guarded.items()}


_DISABLES_EAGER = frozenset({"disable_eager_execution", "disable_v2_behavior"})
_ENABLES_EAGER = re.compile(r"\benable_(?:eager_execution|v2_behavior)\b")


@dataclass(frozen=True)
class EagerOff:
    """Where eager execution is off, the file's calls to `disable_eager_execution()` and
    `disable_v2_behavior()` say: from the line after the module's first such call (None: none),
    in its functions, and in the lines `after` a call in a function's block."""

    module: int | None
    after: tuple[tuple[int, int], ...]

    def covers(self, line: int, in_function: bool) -> bool:
        if self.module is not None and (in_function or line > self.module):
            return True
        return any(first <= line <= last for first, last in self.after)


@of_the_last_text
def eager_disabled(source: str) -> EagerOff | None:
    """Where the file turns eager execution off (`EagerOff`), read with `ast` from the whole source
    as `_tf2_guarded` is; None where it never does, or also turns it back on (`enable_eager_execution`,
    `enable_v2_behavior`: which wins is then a matter of order at run time)."""
    if not any(name in source for name in _DISABLES_EAGER) or _ENABLES_EAGER.search(source):
        return None
    tree = parsed_or_none(source)
    if tree is None:
        return None
    module = next(
        (s.end_lineno or s.lineno for s in (*tree.body, *_main_block(tree)) if _disables_eager(s)), None
    )
    after = [
        ((statement.end_lineno or statement.lineno) + 1, block[-1].end_lineno or block[-1].lineno)
        for function in ast.walk(tree)
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        for block in blocks(function)
        for statement in block
        if _disables_eager(statement)
    ]
    return EagerOff(module, tuple(after)) if module is not None or after else None


def _main_block(tree: ast.Module) -> list[ast.stmt]:
    """The statements of the module's `if __name__ == "__main__":` blocks."""
    return [
        statement
        for node in tree.body
        if isinstance(node, ast.If)
        and "__main__" in ast.unparse(node.test)
        and "__name__" in ast.unparse(node.test)
        for statement in node.body
    ]


def _disables_eager(statement: ast.stmt) -> bool:
    """Whether `statement` is a call of `disable_eager_execution()` or `disable_v2_behavior()`
    (`tf.compat.v1.X()`, or `X()` imported)."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and not statement.value.args
        and last_name(statement.value.func) in _DISABLES_EAGER
    )


def builds_graph_tensors(ctx: RuleContext) -> bool:
    """Whether Keras builds graph tensors, not `KerasTensor`s, where the node being left is: in a
    `with` that makes a graph the default, after an `if` of its function that raises under TF 2
    behaviour, or where eager execution is off (see the module docstring). A statement is matched
    with those `_tf2_guarded` finds by its function's name and its first line."""
    statement = next(
        (n for n in ctx.ancestors if isinstance(n, (cst.SimpleStatementLine, cst.BaseCompoundStatement))),
        None,
    )
    off = eager_disabled(ctx.source)
    if off is not None and statement is not None:
        in_function = any(isinstance(n, (cst.FunctionDef, cst.Lambda)) for n in ctx.ancestors)
        if off.covers(ctx.source_line(statement), in_function):
            return True
    for node in ctx.ancestors:
        if isinstance(node, cst.With) and any(_makes_graph_default(ctx, item.item) for item in node.items):
            return True
        if isinstance(node, cst.FunctionDef):
            guarded = _tf2_guarded(ctx.source).get(node.name.value)
            return (
                statement is not None and guarded is not None and ctx.node_lines(statement)[0][0] in guarded
            )
    return False


def caught(ctx: RuleContext, error: str) -> bool:
    """Whether the node being left is in the body of a `try` of its function that catches `error`
    (by its name, `Exception`, `BaseException`, or a bare `except`): the code copes with the error a
    rule would report (`except AttributeError: pass` around `tensor.graph`)."""
    inner: cst.CSTNode | None = None
    for node in ctx.ancestors:
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(node, cst.Try) and inner is node.body:
            for handler in node.handlers:
                kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
                names = {
                    (dotted_parts(k.value if isinstance(k, cst.Element) else k) or [""])[-1]
                    for k in kinds
                    if k
                }
                if handler.type is None or names & (CATCH_ALL | {error}):
                    return True
        inner = node
    return False


def is_keras_object(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is visibly a Keras model or layer (see the module docstring)."""
    while isinstance(node, cst.Subscript):  # model.layers[3]
        node = node.value
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get_layer":
            return True
        return (ctx.qualified_name(func) or "").startswith("tensorflow.keras.")
    parts = dotted_parts(node)
    if not parts:
        return False
    if KERAS_NAME.search(parts[-1]):
        return True
    if isinstance(node, cst.Name):
        value = assigned_value(ctx, node)
        if isinstance(value, cst.Call):
            return (ctx.qualified_name(value.func) or "").startswith("tensorflow.keras.")
    return False


def _iterated(ctx: RuleContext, name: cst.Name) -> cst.BaseExpression | None:
    """What `name` iterates over when a comprehension's or a loop's `for` binds it alone (the
    engine visits a loop's body on the lines that hold a trigger or use the target of a loop whose
    header holds one: `for out in model.outputs:`)."""
    if not ctx.is_reference(name):
        return None
    binding = ctx.binding(name.value)
    loop = binding.node if binding is not None else None
    if isinstance(loop, (cst.CompFor, cst.For)) and isinstance(loop.target, cst.Name):
        return loop.iter
    return None


def _element_evidence(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """Why `node`, an element of a collection the file builds, is a Keras symbolic value."""
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) in INPUTS:
        return f"`{abbreviated(node.func)}(...)`"
    return symbolic_evidence(ctx, node)


def collection_evidence(ctx: RuleContext, node: cst.BaseExpression, depth: int = 1) -> str | None:
    """Why every item that iterating over `node` yields is a Keras symbolic value, or None: a
    model's `.inputs` / `.outputs`, `.values()` of a dictionary whose values are all symbolic
    (`{name: tf.keras.Input(...) for name in names}`, `{"a": inputs}`), a list or tuple of them,
    or a name bound to one of these in the same scope."""
    if builds_graph_tensors(ctx):
        return None
    return _items_evidence(ctx, node, depth, _SYMBOLIC_ITEMS)


@dataclass(frozen=True)
class _Items:
    """What `_items_evidence` reads as a collection of one kind of Keras value."""

    item: Callable[[RuleContext, cst.BaseExpression], str | None]  # why one item is of the kind
    attributes: tuple[str, ...]  # of a model, that are such collections (`.inputs`)
    owner: Callable[[RuleContext, cst.BaseExpression], bool]  # whether a receiver is a model
    model_says: str  # what a model's attribute is called in the evidence, before its name
    kind: str  # what the items are called in the evidence


def _items_evidence(ctx: RuleContext, node: cst.BaseExpression, depth: int, items: _Items) -> str | None:
    if isinstance(node, cst.Attribute):
        if node.attr.value in items.attributes and items.owner(ctx, node.value):
            return f"`{abbreviated(node)}`, a Keras model's {items.model_says}{node.attr.value}"
        return None
    if isinstance(node, cst.Call):
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "values" and not node.args):
            return None
        mapping = assigned_value(ctx, func.value) if isinstance(func.value, cst.Name) else None
        if isinstance(mapping, cst.DictComp):
            values = [mapping.value]  # its names are the comprehension's: only `Input(...)` is read
            if not (isinstance(mapping.value, cst.Call) and ctx.qualified_name(mapping.value.func) in INPUTS):
                return None
        elif isinstance(mapping, cst.Dict) and mapping.elements:
            values = [e.value for e in mapping.elements if isinstance(e, cst.DictElement)]
            if len(values) != len(mapping.elements):
                return None
        else:
            return None
        found = [items.item(ctx, value) for value in values]
        if any(why is None for why in found):
            return None
        return f"`{abbreviated(node)}`, whose values are Keras {items.kind} ({found[0]})"
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        elements = [e.value for e in node.elements if isinstance(e, cst.Element)]
        found = [items.item(ctx, element) for element in elements]
        if len(elements) != len(node.elements) or any(why is None for why in found):
            return None
        return f"`{abbreviated(node)}`, whose items are Keras {items.kind} ({found[0]})"
    if isinstance(node, cst.Name) and depth > 0:
        value = assigned_value(ctx, node)
        bound = _items_evidence(ctx, value, depth - 1, items) if value is not None else None
        return f"`{node.value}`, bound to {bound}" if bound is not None else None
    return None


def _name_evidence(ctx: RuleContext, name: cst.Name, depth: int) -> str | None:
    collection = _iterated(ctx, name)
    if collection is not None:
        found = collection_evidence(ctx, collection)
        if found is not None:
            return f"`{name.value}` iterates over {found}"
    value = assigned_value(ctx, name)
    if value is None:
        return _parameter_evidence(ctx, name) or _flow_evidence(ctx, name)
    if isinstance(value, cst.Call) and ctx.qualified_name(value.func) in INPUTS:
        return f"`{name.value}` is bound to `{abbreviated(value.func)}(...)`"
    if isinstance(value, cst.Call) and _traces(ctx, value):
        return None
    if _returned_evidence(ctx, value) is not None:  # `outputs = build()`: the flow says it alike everywhere
        return _flow_evidence(ctx, name)
    found = _expression_evidence(ctx, value, depth - 1, skip_name=name.value) if depth > 0 else None
    if found is None:
        return _flow_evidence(ctx, name)
    return f"`{name.value}` is computed from a Keras symbolic value ({found})"


def _flow_evidence(ctx: RuleContext, name: cst.Name) -> str | None:
    """Why `symbolic_flow` finds `name` a Keras symbolic value where it is read, when the rule
    cannot see the binding (the plan left it out) or sees an assignment (a parameter, a loop's
    target or an import is read by the other kinds of evidence)."""
    if not ctx.is_reference(name):
        return None
    binding = ctx.binding(name.value)
    bound_by = binding.node if binding is not None else None
    if bound_by is not None and not isinstance(bound_by, (cst.Assign, cst.AnnAssign)):
        return None
    return symbolic_flow(ctx.source).name(_enclosing_scopes(ctx), name.value, lambda: _read_line(ctx, name))


def _read_line(ctx: RuleContext, name: cst.Name) -> int | None:
    """The line of the source that reads `name`, where it is in the statement being left (the
    evidence also reads names of the assignments it follows, elsewhere)."""
    try:
        return ctx.source_line(name)
    except KeyError:
        return None


def _enclosing_scopes(ctx: RuleContext) -> tuple[str, ...]:
    """The qualified names of the functions around the node being left, the innermost first, then
    "" for the module (`symbolic_flow`'s keys)."""
    definitions = _definitions(ctx)
    functions = [
        _path(definitions[: i + 1]) for i, d in enumerate(definitions) if isinstance(d, cst.FunctionDef)
    ]
    return (*reversed(functions), "")


def _attribute_evidence(ctx: RuleContext, node: cst.Attribute) -> str | None:
    """Why `self.x` in a method is a Keras symbolic value: its class's methods give it one
    wherever they assign it (`symbolic_flow`)."""
    if not (isinstance(node.value, cst.Name) and node.value.value == "self"):
        return None
    owner = _method_owner(ctx)
    return symbolic_flow(ctx.source).attributes.get((owner, node.attr.value)) if owner else None


def _returned_evidence(ctx: RuleContext, call: cst.BaseExpression) -> str | None:
    """Why what `call` returns is a Keras symbolic value: it calls a function of the file whose
    every `return` gives one (`symbolic_flow`)."""
    if not isinstance(call, cst.Call):
        return None
    func = call.func
    if isinstance(func, cst.Name):
        callee = func.value
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        owner = _method_owner(ctx)
        if not owner:
            return None
        callee = f"{owner}.{func.attr.value}"
    else:
        return None
    positions, why = symbolic_flow(ctx.source).returns.get(callee, (frozenset(), ""))
    return f"what {why}" if positions is None else None


def _traces(ctx: RuleContext, call: cst.Call) -> bool:
    """Whether `call` traces a function: `tf.function(...)`, `.get_concrete_function(...)`,
    `convert_variables_to_constants_v2(...)`."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "get_concrete_function":
        return True
    return ctx.qualified_name(func) in TRACERS


def _parameter_evidence(ctx: RuleContext, name: cst.Name) -> str | None:
    """Why the parameter `name` is a Keras symbolic value: a call in the file passes it one
    (`symbolic_parameters`); None for anything else."""
    binding = ctx.binding(name.value) if ctx.is_reference(name) else None
    if binding is None or not isinstance(binding.node, cst.Param):
        return None
    function = next(
        (
            node
            for node in ctx.ancestors
            if isinstance(node, cst.FunctionDef)
            and any(
                p is binding.node
                for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
            )
        ),
        None,
    )
    if function is None:
        return None
    parameters = symbolic_parameters(ctx.source)
    owner = _owner(ctx, function)
    callee = f"{owner}.{function.name.value}" if owner else function.name.value
    return parameters.get((callee, name.value))


def _definitions(ctx: RuleContext) -> list[cst.FunctionDef | cst.ClassDef]:
    """The functions and classes around the node being left, the outermost first."""
    return [n for n in reversed(ctx.ancestors) if isinstance(n, (cst.FunctionDef, cst.ClassDef))]


def _path(definitions: list[cst.FunctionDef | cst.ClassDef]) -> str:
    """The qualified name of the last of `definitions` (`Builder.block`), as `symbolic_flow` keys it."""
    return ".".join(d.name.value for d in definitions)


def _owner(ctx: RuleContext, function: cst.FunctionDef) -> str:
    """The qualified name of the class `function` (an ancestor of the node being left) is a method
    of, or ""."""
    definitions = _definitions(ctx)
    index = next(i for i, d in enumerate(definitions) if d is function)
    return _path(definitions[:index]) if index and isinstance(definitions[index - 1], cst.ClassDef) else ""


def _method_owner(ctx: RuleContext) -> str:
    """The qualified name of the class of the method the node being left is directly in, or ""."""
    innermost = next((n for n in ctx.ancestors if isinstance(n, (cst.FunctionDef, cst.ClassDef))), None)
    return _owner(ctx, innermost) if isinstance(innermost, cst.FunctionDef) else ""


def expression_evidence(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """Why some part of `node` is a Keras symbolic value, or None when the file shows nothing."""
    if builds_graph_tensors(ctx):
        return None
    return _expression_evidence(ctx, node, _DEPTH)


def _expression_evidence(
    ctx: RuleContext, node: cst.BaseExpression, depth: int, skip_name: str = ""
) -> str | None:
    for current, hidden in walk(node):
        if isinstance(current, cst.Call) and ctx.qualified_name(current.func) in INPUTS:
            return f"`{abbreviated(current.func)}(...)` is passed to it"
        if isinstance(current, cst.Attribute):
            if current.attr.value in SYMBOLIC_ATTRIBUTES and is_keras_object(ctx, current.value):
                return f"`{abbreviated(current)}` is a Keras model's symbolic {current.attr.value}"
            found = _attribute_evidence(ctx, current)
            if found is not None:
                return found
        elif isinstance(current, cst.Call):
            found = _returned_evidence(ctx, current)
            if found is not None:
                return found
        elif isinstance(current, cst.Name) and current.value not in hidden and current.value != skip_name:
            found = _name_evidence(ctx, current, depth)
            if found is not None:
                return found
    return None


def symbolic_evidence(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """Why `node` itself is a Keras symbolic value, or None: a name traced to `Input(...)` (or
    computed from one), or a model's `.input(s)` / `.output(s)` (also indexed: `model.inputs[0]`),
    or an item of `nest.flatten(...)` of one of these or of a collection of them."""
    if builds_graph_tensors(ctx):
        return None
    while isinstance(node, cst.Subscript):
        node = node.value
    if isinstance(node, cst.Call):
        return _flattened_evidence(ctx, node) or _returned_evidence(ctx, node)
    if isinstance(node, cst.Attribute):
        if node.attr.value in SYMBOLIC_ATTRIBUTES and is_keras_object(ctx, node.value):
            return f"`{abbreviated(node)}` is a Keras model's symbolic {node.attr.value}"
        return _attribute_evidence(ctx, node)
    if isinstance(node, cst.Name):
        return _name_evidence(ctx, node, _DEPTH)
    return None


_FLATTEN = frozenset({"tensorflow.nest.flatten", "tensorflow.python.util.nest.flatten"})


def _flattened_evidence(ctx: RuleContext, call: cst.Call) -> str | None:
    """Why every item of `call`, a `nest.flatten(x)`, is a Keras symbolic value: `x` is one, or a
    collection of them (`collection_evidence`)."""
    if ctx.qualified_name(call.func) not in _FLATTEN or len(call.args) != 1 or call.args[0].star:
        return None
    value = call.args[0].value
    found = symbolic_evidence(ctx, value) or collection_evidence(ctx, value)
    return f"`{abbreviated(call)}` flattens Keras symbolic values ({found})" if found is not None else None


_MODEL_NAME = re.compile("model|Model|MODEL")
_MODEL_CLASSES = frozenset({"tensorflow.keras.Model", "tensorflow.keras.Sequential"})
_MODEL_MODULES = ("tensorflow.keras.models.", "tensorflow.keras.applications.")


def _is_model(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` is visibly a Keras model (not any layer): named as one (`model`,
    `base_model`, `self.model`), or bound to a `tf.keras.Model(...)`, `Sequential(...)`,
    `tf.keras.models.*` or `tf.keras.applications.*` construction in the same scope."""
    parts = dotted_parts(node)
    if not parts:
        return False
    if _MODEL_NAME.search(parts[-1]):
        return True
    value = assigned_value(ctx, node) if isinstance(node, cst.Name) else None
    if not isinstance(value, cst.Call):
        return False
    constructed = ctx.qualified_name(value.func) or ""
    return constructed in _MODEL_CLASSES or constructed.startswith(_MODEL_MODULES)


def input_evidence(ctx: RuleContext, node: cst.BaseExpression, depth: int = 2) -> str | None:
    """Why `node` is a Keras model's input (what `tf.keras.Input(...)` returned), or None.

    Only inputs: from TF 2.4 their `.name` is the `Input`'s `name=` without `:0`, while the
    outputs of layers keep op names such as `dense/BiasAdd:0` (executed on TF 2.3.0 and 2.4.0).
    What counts: `Input(...)`, a model's `.input`, `.inputs[i]`, and a name bound to one of these
    in the same scope (`x = model.input`, up to `depth` names) or iterating over inputs (see
    `input_collection_evidence`)."""
    if builds_graph_tensors(ctx):
        return None
    return _input_evidence(ctx, node, depth)


def _input_evidence(ctx: RuleContext, node: cst.BaseExpression, depth: int) -> str | None:
    if isinstance(node, cst.Call) and ctx.qualified_name(node.func) in INPUTS:
        return f"`{abbreviated(node.func)}(...)`"
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute):
        node = node.value
        if node.attr.value != "inputs":
            return None
    if isinstance(node, cst.Attribute):
        if node.attr.value in ("input", "inputs") and _is_model(ctx, node.value):
            return f"`{abbreviated(node)}` is a Keras model's input"
        return None
    if not isinstance(node, cst.Name):
        return None
    collection = _iterated(ctx, node)
    if collection is not None:
        found = input_collection_evidence(ctx, collection)
        return f"`{node.value}` iterates over {found}" if found is not None else None
    value = assigned_value(ctx, node)
    if isinstance(value, cst.Call) and ctx.qualified_name(value.func) in INPUTS:
        return f"`{node.value}` is bound to `{abbreviated(value.func)}(...)`"
    if value is None or depth <= 0:
        return None
    found = _input_evidence(ctx, value, depth - 1)
    return f"`{node.value}` is bound to {found}" if found is not None else None


def _input_evidence_item(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    return _input_evidence(ctx, node, 2)


def input_collection_evidence(ctx: RuleContext, node: cst.BaseExpression, depth: int = 1) -> str | None:
    """Why every item that iterating over `node` yields is a Keras model's input, or None: a
    model's `.inputs`, `.values()` of a dictionary whose values are all inputs
    (`{name: tf.keras.Input(...) for name in names}`), a list or tuple of inputs, or a name bound
    to one of these in the same scope."""
    if builds_graph_tensors(ctx):
        return None
    return _items_evidence(ctx, node, depth, _INPUT_ITEMS)


def symbolic_names(ctx: RuleContext, node: cst.CSTNode) -> list[tuple[cst.Name, str]]:
    """The names in `node` traced to a Keras symbolic value, with the evidence for each."""
    if builds_graph_tensors(ctx):
        return []
    found = []
    for current, hidden in walk(node):
        if isinstance(current, cst.Name) and current.value not in hidden:
            why = _name_evidence(ctx, current, _DEPTH)
            if why is not None:
                found.append((current, why))
    return found


_SYMBOLIC_ITEMS = _Items(
    _element_evidence, ("inputs", "outputs"), is_keras_object, "symbolic ", "symbolic values"
)
_INPUT_ITEMS = _Items(_input_evidence_item, ("inputs",), _is_model, "", "inputs")
