"""TF24226 `layer-call-internals`: what a custom layer makes inside its `call` is not part of a
Functional model from TF 2.4: a tensor the layer keeps on itself (`self.attention = ...`) is no
model output, and a layer it calls there (`self.conv_1(inputs)`) has no `output`."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import argument_values, code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern, any_of
from tf24migrate.rules.text import of_the_last_text, parsed_or_none

from ._symbolic import builds_graph_tensors

_FUNCTIONAL = frozenset({"tensorflow.keras.Model", "tensorflow.keras.models.Model"})
_LAYER_BASES = frozenset(
    {
        *_FUNCTIONAL,
        "tensorflow.python.keras.engine.base_layer.Layer",
        "tensorflow.python.keras.engine.training.Model",
    }
)
_BACKEND_FUNCTIONS = frozenset(
    {"tensorflow.keras.backend.function", "tensorflow.python.keras.backend.function"}
)
_NOT_OF_A_LAYER = (
    'raises ValueError ("Output tensors of a Functional model must be the output of a TensorFlow `Layer`")'
)
# the methods of a model or layer that take a tensor from outside a layer: its parameter, and how TF 2.4 fails
_ADDED = {
    "add_metric": ("value", 'raises ValueError ("Expected a symbolic Tensor for the metric value")'),
    "add_loss": (
        "losses",
        'raises TypeError ("An op outside of the function building code is being passed a Graph tensor")',
    ),
}
_LAYERS = "tensorflow.keras.layers."
_NOT_CALLED_LAYERS = frozenset({"tensorflow.keras.layers.Input", "tensorflow.keras.layers.InputLayer"})
# what a layer knows of the Functional graph it was called in (its inbound nodes)
_NODE_ATTRIBUTES = frozenset({"output", "input", "output_shape", "input_shape", "outputs", "inputs"})
_CONSTRUCTORS = ("__init__", "build")
_AT_NODE = frozenset({"get_output_at", "get_input_at", "get_output_shape_at", "get_input_shape_at"})
_AT_NODE_NEEDLE = Pattern(r"\bget_(?:output|input)(?:_shape)?_at\b", "get_output", "get_input")


@dataclass(frozen=True)
class _LayerClass:
    """A class of the file as its text shows it: its bases as written, the attributes of `self`
    its `call` assigns, and those it calls there that `__init__` or `build` assigned a
    construction to (attribute -> the constructed callee as written)."""

    name: str
    bases: tuple[str, ...]
    kept: frozenset[str]
    inner: dict[str, str]


def _self_attribute(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _assigned(function: ast.FunctionDef) -> dict[str, ast.expr]:
    """The attributes of `self` that `function` assigns, with the value of the last assignment."""
    assigned: dict[str, ast.expr] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets = [
                t
                for target in node.targets
                for t in (target.elts if isinstance(target, ast.Tuple) else [target])
            ]
            for target in targets:
                name = _self_attribute(target)
                if name is not None:
                    assigned[name] = node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            name = _self_attribute(node.target)
            if name is not None:
                assigned[name] = node.value
    return assigned


@of_the_last_text
def _classes(source: str) -> tuple[_LayerClass, ...]:
    """The classes of `source`, as `_LayerClass`es."""
    tree = parsed_or_none(source)
    if tree is None:
        return ()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        methods = {m.name: m for m in node.body if isinstance(m, ast.FunctionDef)}
        call = methods.get("call")
        bases = tuple(ast.unparse(base) for base in node.bases)
        if call is None:
            found.append(_LayerClass(node.name, bases, frozenset(), {}))
            continue
        called = {
            name
            for n in ast.walk(call)
            if isinstance(n, ast.Call) and (name := _self_attribute(n.func)) is not None
        }
        constructed = {
            name: ast.unparse(value.func)
            for method in _CONSTRUCTORS
            if method in methods
            for name, value in _assigned(methods[method]).items()
            if name in called and isinstance(value, ast.Call)
        }
        found.append(_LayerClass(node.name, bases, frozenset(_assigned(call)), constructed))
    return tuple(found)


def _resolves_to(ctx: RuleContext, written: str, names: frozenset[str], prefix: str = "\0") -> bool:
    qualified = ctx.qualified_name(cst.parse_expression(written)) or ""
    return qualified in names or qualified.startswith(prefix)


def _is_custom_layer(ctx: RuleContext, cls: _LayerClass, depth: int = 2) -> bool:
    """Whether `cls` derives from a Keras layer or model, directly or through a class of the file."""
    for base in cls.bases:
        if _resolves_to(ctx, base, _LAYER_BASES, _LAYERS):
            return True
        parent = next((c for c in _classes(ctx.source) if c.name == base), None)
        if parent is not None and depth > 0 and _is_custom_layer(ctx, parent, depth - 1):
            return True
    return False


def _is_layer_construction(ctx: RuleContext, callee: str) -> bool:
    """Whether `callee(...)` builds a layer that gets no Functional node of its own: a Keras
    layer (not an `Input`), or a class of the file deriving from a layer or model; not a
    Functional model (`tf.keras.Model(inputs, outputs)`, `tf.keras.applications.*`)."""
    if _resolves_to(ctx, callee, frozenset(), _LAYERS):
        return ctx.qualified_name(cst.parse_expression(callee)) not in _NOT_CALLED_LAYERS
    cls = next((c for c in _classes(ctx.source) if c.name == callee), None)
    return cls is not None and _is_custom_layer(ctx, cls)


def _layer_of_nested_model(node: cst.BaseExpression) -> bool:
    """Whether `node` is a layer reached through a model inside a model:
    `outer.get_layer("inner").get_layer("dense")`, or `outer.layers[1].get_layer("dense")`."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
        return False
    if node.func.attr.value != "get_layer":
        return False
    inner = node.func.value
    if isinstance(inner, cst.Subscript):
        return isinstance(inner.value, cst.Attribute) and inner.value.attr.value == "layers"
    return (
        isinstance(inner, cst.Call)
        and isinstance(inner.func, cst.Attribute)
        and inner.func.attr.value == "get_layer"
    )


def _node_index(call: cst.Call) -> int | None:
    """The node index given to `get_output_at(...)`, when it is a literal."""
    given = argument_values(call, 0, "node_index")
    if given and isinstance(given[0], cst.Integer):
        return int(given[0].evaluated_value)
    return None


@of_the_last_text
def _name_assignments(source: str) -> dict[str, list[tuple[int, str, str] | tuple[int, None, None]]]:
    """Every `name = value` of `source` by name, in the order of their lines: (line, receiver as
    written, attribute) where the value is an attribute, else (line, None, None). Other ways of
    binding a name (a `for` target, `+=`, a tuple target) count as `(line, None, None)` too."""
    found: dict[str, list[tuple[int, str, str] | tuple[int, None, None]]] = {}
    simple: set[ast.Name] = set()
    tree = parsed_or_none(source)
    if tree is None:
        return found
    nodes = list(ast.walk(tree))
    for node in nodes:
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        for target in node.targets:
            if isinstance(target, ast.Name):
                simple.add(target)
                found.setdefault(target.id, []).append(
                    (node.lineno, ast.unparse(value.value), value.attr)
                    if isinstance(value, ast.Attribute)
                    else (node.lineno, None, None)
                )
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node not in simple:
            found.setdefault(node.id, []).append((node.lineno, None, None))
        elif isinstance(node, ast.arg):
            found.setdefault(node.arg, []).append((node.lineno, None, None))
    for assignments in found.values():
        assignments.sort(key=lambda assignment: assignment[0])
    return found


def _attribute_bound_to(source: str, name: str) -> tuple[str, str, int] | None:
    """What `name = receiver.attribute` binds when that is the only kind of assignment to `name`
    in `source` (every one reads the same attribute, not of `self`), as (receiver as written,
    attribute, line of the first). The statements binding a model's outputs are seldom on a line
    the engine parses, so the source is read whole, and without an order: a name also bound to
    anything else is left alone."""
    assignments = _name_assignments(source).get(name, [])
    if not assignments:
        return None
    at, receiver, attribute = assignments[0]
    if receiver is None or attribute is None or receiver == "self":
        return None
    if any(a[2] != attribute or a[1] == "self" for a in assignments):
        return None
    return receiver, attribute, at


def _outputs(call: cst.Call) -> list[cst.BaseExpression]:
    """The outputs given to `Model(inputs, outputs)`: the argument, or the items of its list or tuple."""
    given = argument_values(call, 1, "outputs")
    items: list[cst.BaseExpression] = []
    for value in given:
        if isinstance(value, (cst.List, cst.Tuple)):
            items += [e.value for e in value.elements if isinstance(e, cst.Element)]
        else:
            items.append(value)
    return items


def _in_argument(argument: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The names and attributes (not of `self`) anywhere in `argument`: a metric or a loss may be
    computed from a kept tensor (`tf.reduce_mean(layer.attention)`)."""
    found: list[cst.BaseExpression] = []

    class Visitor(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.append(node)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            found.append(node)
            return True

    argument.visit(Visitor())
    return found


def _use_of_kept(ctx: RuleContext, call: cst.Call) -> tuple[list[cst.BaseExpression], str, str] | None:
    """Where `call` takes tensors that must come from layers: (the values to look at, what takes
    them, how TF 2.4 fails): the outputs of `Model(inputs, outputs)` and of
    `tf.keras.backend.function(inputs, outputs)` (which builds a Functional model on TF 2.4), and
    what `model.add_metric(value)` or `model.add_loss(losses)` is given outside a layer."""
    func = call.func
    qualified = ctx.qualified_name(func)
    if qualified in _FUNCTIONAL:
        return _outputs(call), "the model", f"`Model(...)` {_NOT_OF_A_LAYER}"
    if qualified in _BACKEND_FUNCTIONS:
        return _outputs(call), "`function`", f"`function(...)` {_NOT_OF_A_LAYER}"
    if not isinstance(func, cst.Attribute) or func.attr.value not in _ADDED or code_for(func.value) == "self":
        return None
    keyword = _ADDED[func.attr.value][0]
    given = argument_values(call, 0, keyword)
    values = [value for argument in given for value in _in_argument(argument)]
    return values, f"`{func.attr.value}`", f"`{func.attr.value}` {_ADDED[func.attr.value][1]}"


class LayerCallInternals(Rule):
    """What a custom layer makes inside its `call` is not part of a Functional model from TF 2.4.

    From TF 2.4 the Functional API builds `KerasTensor`s, and runs a custom layer's `call` on
    placeholders in a scratch graph (executed on TF 2.3.0 and 2.4.0): what `call` makes there never
    reaches the model being built.
    - A tensor the layer keeps on itself in `call` (`self.attention = tf.nn.softmax(scores)`, an
      attention map) given as an output of `tf.keras.Model(inputs, outputs)` raises `ValueError`
      ("Output tensors of a Functional model must be the output of a TensorFlow `Layer`"): return it
      from `call` as a second output, and use that. So does `tf.keras.backend.function(inputs,
      outputs)` given it (it builds a Functional model), `model.add_metric(...)` of it
      ("Expected a symbolic Tensor for the metric value") and `model.add_loss(...)` of it
      ("An op outside of the function building code is being passed a Graph tensor").
    - A layer built in `__init__` (or `build`) and called inside `call` (`self.conv_1(inputs)`) gets
      no inbound node: its `.output` raises `AttributeError` ("Layer conv_1 has no inbound nodes"),
      `.input` and `.output_shape` too. A subclassed `Model` behaves alike. Return the tensor from
      `call`, or build the inner layers into a Functional model of their own.
    - Likewise a Functional model called inside another adds a node to itself, not to its layers:
      `outer.get_layer("inner").get_layer("dense").get_output_at(1)` (TF 2.3's node of that call)
      raises `ValueError` ("Asked to get output at node 1, but the layer has only 1 inbound
      nodes"). Build the sub-model from the inner model's own input,
      `tf.keras.Model(inner.input, inner.get_layer("dense").output)`, and call it on the outer one.

    Reported only where the file shows it all: the attribute is assigned in the `call` of a class of
    the file that derives from a Keras layer or model (`tf.keras.layers.*`, `tf.keras.Model`), and
    read outside it (not on `self`), as (an item of) the outputs of `tf.keras.Model(...)` or of
    `tf.keras.backend.function(...)`, or anywhere in what `add_metric(...)` or `add_loss(...)` of
    anything but `self` is given, also through a name every assignment of the file binds to that
    attribute; or the
    attribute is assigned a Keras layer (`tf.keras.layers.*`, not `Input`) in that class's `__init__`
    or `build`, called in its `call`, and its `.output`, `.input`, `.output_shape`, `.input_shape`,
    `.outputs` or `.inputs` is read outside it; or `get_output_at`, `get_input_at` (and their
    `_shape_` forms) with a literal node index of 1 or more on `get_layer(...)` of a
    `get_layer(...)` or of `.layers[i]` (a layer of a nested model). Not where Keras builds graph tensors (eager
    execution off, a graph made the default): there the layers are connected as in TF 2.3. Not
    rewritten: `call` must return what the model needs.

    Reported:

        class SelfAttention(tf.keras.layers.Layer):
            def call(self, inputs):
                self.attention = tf.nn.softmax(tf.matmul(inputs, inputs, transpose_b=True))
                return tf.matmul(self.attention, inputs)

        inputs = tf.keras.Input((5, 3))
        layer = SelfAttention()
        outputs = layer(inputs)
        attention_model = tf.keras.Model(inputs, layer.attention)

    Write instead:

        class SelfAttention(tf.keras.layers.Layer):
            def call(self, inputs):
                attention = tf.nn.softmax(tf.matmul(inputs, inputs, transpose_b=True))
                return tf.matmul(attention, inputs), attention

        inputs = tf.keras.Input((5, 3))
        outputs, attention = SelfAttention()(inputs)
        attention_model = tf.keras.Model(inputs, attention)

    Versions: a custom layer called on `KerasTensor`s runs its `call` in a scratch `FuncGraph`
    (`Layer._infer_output_signature`, tensorflow/python/keras/engine/base_layer.py) and
    `Functional._validate_graph_inputs_and_outputs` raises on outputs without `_keras_history`
    (engine/functional.py), in the tensorflow-cpu 2.4.0 wheel; in 2.3.0 both reach the model (as
    an op layer, and as a node of the inner layer). `K.function`, `add_metric` and `add_loss` of a
    kept tensor run on 2.3.0 and raise on 2.4.0, and the returned tensor works in each on both
    (executed).
    """

    code = "TF24226"
    name = "layer-call-internals"
    old_removed = "2.4"
    changed_in = "2.4"
    fix = None
    severity = Severity.ERROR
    # `Model(` for kept tensors; `x.conv_1.output` for inner layers
    triggers = (
        Pattern(r"\bModel[ \t]*\(", "Model"),
        Pattern(r"\b(?:function|add_metric|add_loss)[ \t]*\(", "function", "add_metric", "add_loss"),
        Pattern(r"\.[ \t]*\w+[ \t]*\.[ \t]*(?:output|input)(?:s|_shape)?\b", "output", "input"),
        _AT_NODE_NEEDLE,
    )
    requires = (*IMPORTS_TENSORFLOW, any_of(Pattern(r"\bdef[ \t]+call\b", "call"), _AT_NODE_NEEDLE))
    follows = ()

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value in _AT_NODE:
            self._node_of_nested_layer(ctx, original, func)
            return updated
        use = _use_of_kept(ctx, original)
        if use is None or builds_graph_tensors(ctx):
            return updated
        values, given, failure = use
        for output in values:
            bound = _attribute_bound_to(ctx.source, output.value) if isinstance(output, cst.Name) else None
            if bound is not None:
                kept, shown = (
                    bound[1],
                    f"`{code_for(output)}`, bound to `{bound[0]}.{bound[1]}` on line {bound[2]},",
                )
            elif isinstance(output, cst.Attribute) and code_for(output.value) != "self":
                kept, shown = output.attr.value, f"`{code_for(output)}`"
            else:
                continue
            cls = next(
                (c for c in _classes(ctx.source) if kept in c.kept and _is_custom_layer(ctx, c)),
                None,
            )
            if cls is None:
                continue
            evidence = f"`{cls.name}.call` keeps `self.{kept} = ...`"
            ctx.report(
                output,
                f"{shown} is no output of a layer from TF 2.4: return it from "
                f"`{cls.name}.call` as a second output and give {given} that.\n"
                f"{evidence}; TF 2.4 runs a custom layer's `call` on placeholders in a scratch graph, so "
                f"{failure}.",
                evidence=evidence,
            )
        return updated

    def _node_of_nested_layer(self, ctx: RuleContext, call: cst.Call, func: cst.Attribute) -> None:
        """Report `outer.get_layer("inner").get_layer("dense").get_output_at(1)`: the node that
        calling the inner model inside the outer one added to its layers in TF 2.3."""
        index = _node_index(call)
        if index is None or index < 1 or not _layer_of_nested_model(func.value) or builds_graph_tensors(ctx):
            return
        layer = code_for(func.value)
        get_layer = func.value.func if isinstance(func.value, cst.Call) else None
        model = code_for(get_layer.value) if isinstance(get_layer, cst.Attribute) else layer
        evidence = f"`{layer}` is a layer of the model `{model}`, which is called inside another"
        ctx.report(
            call,
            f"`{func.attr.value}({index})` raises ValueError from TF 2.4: calling a model inside another "
            "adds no node to its layers; build the sub-model from the inner model's own input "
            "(`tf.keras.Model(inner.input, inner.get_layer(name).output)`) and call it on the outer input.\n"
            f"{evidence}; TF 2.4 records the call as a node of the inner model only, so its layers keep "
            'their one node ("Asked to get output at node 1, but the layer has only 1 inbound nodes").',
            evidence=evidence,
        )

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        inner = original.value
        if (
            original.attr.value not in _NODE_ATTRIBUTES
            or not isinstance(inner, cst.Attribute)
            or code_for(inner.value) == "self"
        ):
            return updated
        name = inner.attr.value
        cls = next(
            (
                c
                for c in _classes(ctx.source)
                if name in c.inner and _is_custom_layer(ctx, c) and _is_layer_construction(ctx, c.inner[name])
            ),
            None,
        )
        if cls is None or builds_graph_tensors(ctx):
            return updated
        evidence = f"`{cls.name}.call` calls `self.{name}`, a `{cls.inner[name]}`"
        ctx.report(
            original,
            f"`{code_for(original)}` raises AttributeError from TF 2.4: `{name}` is called inside "
            f"`{cls.name}.call`; return the tensor from `call` instead.\n"
            f"{evidence}; TF 2.4 runs a custom layer's `call` on placeholders in a scratch graph, so the "
            'layers it calls get no inbound node ("Layer ... has no inbound nodes").',
            evidence=evidence,
        )
        return updated


RULES = (LayerCallInternals(),)
