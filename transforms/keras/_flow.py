"""Where Keras symbolic values go in a file, across its scopes: read with `ast` from the whole source.

A rule sees a pruned LibCST tree: the statements no trigger is on are left out, and
`_symbolic`'s evidence follows names only within the statements it sees. What a call passes to a
helper, what a function returns, what a class keeps on `self` and what a name is bound to three
assignments earlier is in the whole source, which only `ast` reads at this cost. `symbolic_flow`
reads it once per text:

- the parameters of the functions whose calls it follows that a call of the file passes a
  symbolic value (`def block(x): ...` then `block(inputs)`), through helpers calling helpers too:
  plain functions (not decorated: `tf.function` may give a function other values; each defined
  once by its name), and methods a method of the same class calls as `self.block(x)` (not
  decorated, their name no other function's or method's in the file: a subclass could override
  it); what `obj.method(...)` reaches otherwise is not visible;
- what those functions return: a symbolic value at every `return`, or tuples holding one at the
  same position at every `return` (`return inputs, outputs`, then `inputs, outputs = build()`);
- the attributes of `self` that every assignment in a class's methods gives a symbolic value
  (`self.outputs = Dense(4)(self.inputs)`);
- what a name of a scope is: within the scope, its last binding before the line that reads it
  (`x = Input(...)`, then `x = Dense(4)(x)`: symbolic; `x = tf.constant(1.0)` after a symbolic
  parameter: not); read from a rule's site, or from a function within, its last binding in the
  scope (`SymbolicFlow.name`: locating a rule's node in the source costs more than it gives).

A symbolic value is `Input(...)`, a value computed from one (not as an attribute's receiver:
`inputs.shape` is no symbolic value; not in a lambda; not the function of a call), a model's or a
layer's `.input(s)` / `.output(s)`, and the items of `.inputs` / `.outputs` a loop or a
comprehension iterates over. A call in the body of a `try` that catches what a symbolic value
makes fail passes no evidence (the code copes), and what TF's tracing makes (`tf.function(...)`,
`get_concrete_function`) is no symbolic value.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tf24migrate.rules.names import ast_import_aliases, ast_qualified_name, last_name
from tf24migrate.rules.text import of_the_last_text, parsed_or_none

INPUTS = frozenset({"tensorflow.keras.Input", "tensorflow.keras.layers.Input"})
SYMBOLIC_ATTRIBUTES = frozenset({"input", "inputs", "output", "outputs"})
KERAS_NAMES = ("model", "Model", "MODEL", "layer", "Layer", "LAYER")  # `base_model`, `self.encoderLayer`
KERAS_NAME = re.compile("|".join(KERAS_NAMES))
# What TF's tracing makes of Keras values is a function or a graph, not a symbolic value
# (`frozen = convert_variables_to_constants_v2(f.get_concrete_function(model.inputs))`, then
# `frozen.graph`); `.get_concrete_function(...)` too, by its attribute.
TRACERS = frozenset(
    {
        "tensorflow.function",
        "tensorflow.python.framework.convert_to_constants.convert_variables_to_constants_v2",
    }
)
CATCH_ALL = frozenset({"Exception", "BaseException"})
# What a `try` catching one of these expects of a call in its body: the errors of `KerasTensor`s.
_BREAKS_CAUGHT = CATCH_ALL | {"AttributeError", "TypeError"}
_ROUNDS = 4  # each finding can make more: a parameter, a return, an attribute


def blocks(function: ast.AST) -> Iterator[list[ast.stmt]]:
    """The statement lists of `function`: its body and those nested in its statements (not in
    nested functions or classes)."""
    stack = [function]
    while stack:
        node = stack.pop()
        for name in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, name, None)
            if not isinstance(block, list) or not block:
                continue
            if isinstance(block[0], ast.stmt):
                yield block
            stack.extend(
                s for s in block if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            )


@dataclass(frozen=True)
class SymbolicFlow:
    """What `symbolic_flow` found. Scopes and classes are keyed by their qualified names within
    the module (`build`, `Network.__init__`, `outer.inner`; "" for the module); a name the file
    defines twice keys nothing."""

    parameters: dict[tuple[str, str], str]  # (function, parameter): why; a method's `Class.name`
    returns: dict[
        str, tuple[frozenset[int] | None, str]
    ]  # function (as `parameters` names it): (tuple positions, or None: all), why
    attributes: dict[tuple[str, str], str]  # (class, attribute of `self`): why
    scopes: dict[str, _Values] = field(default_factory=dict)

    def name(self, scopes: tuple[str, ...], name: str, line: Callable[[], int | None]) -> str | None:
        """Why `name`, read in the innermost of `scopes` (innermost first, the module last), is a
        Keras symbolic value by its last binding there before the line that reads it, or None.

        `line()` gives that line, or None where it is unknown; it is asked only where a binding
        of the name is symbolic (locating a rule's node in the source costs more than the rest).
        Where it is unknown, the name is symbolic only if each of its bindings there is."""
        for scope in scopes:
            values = self.scopes.get(scope)
            if values is None or name not in values.scope.bindings:
                continue
            verdicts = values.verdicts(name)
            if not any(verdicts):
                return None
            read = line()
            if read is not None:
                return values.why(name, read)
            return verdicts[-1] if all(verdicts) else None
        return None


_NO_FLOW = SymbolicFlow({}, {}, {})
_AFTER_ALL = 1 << 30


@of_the_last_text
def symbolic_flow(source: str) -> SymbolicFlow:
    """Where Keras symbolic values go in `source` (see the module docstring)."""
    tree = parsed_or_none(source) if "Input" in source or "put" in source else None
    if tree is None:
        return _NO_FLOW
    aliases = ast_import_aliases(tree)
    scopes, functions = _scopes(tree, aliases, _plain_functions(tree, aliases))
    flow = SymbolicFlow({}, {}, {})
    for _ in range(_ROUNDS):
        before = (len(flow.parameters), len(flow.returns), len(flow.attributes))
        flow.scopes.clear()
        evaluated = []
        for scope in scopes:
            values = _Values(
                scope, aliases, flow, flow.scopes.get(scope.parent) if scope.parent is not None else None
            )
            if scope.key is not None:
                flow.scopes[scope.key] = values
            evaluated.append(values)
        attributes: dict[tuple[str, str], list[bool]] = {}
        for values in evaluated:
            scope = values.scope
            _passed_parameters(values, functions)
            if scope.function and scope.function not in flow.returns:
                returned = _symbolic_returns(values)
                if returned is not None:
                    flow.returns[scope.function] = returned
            for attribute, value in scope.attributes:
                attributes.setdefault((scope.owner, attribute), []).append(values.carries(value))
        for (owner, attribute), assigned in attributes.items():
            if owner and all(assigned):
                flow.attributes.setdefault(
                    (owner, attribute),
                    f"`self.{attribute}` is given a Keras symbolic value wherever its class assigns it",
                )
        if before == (len(flow.parameters), len(flow.returns), len(flow.attributes)):
            break
    return flow


def symbolic_parameters(source: str) -> dict[tuple[str, str], str]:
    """`{(function, parameter): why}` for the parameters of the file's plain functions that a call
    in the file passes a Keras symbolic value (see `symbolic_flow`)."""
    return symbolic_flow(source).parameters


@dataclass(frozen=True)
class _Binding:
    """One binding of a name in a scope: `value` (an assignment's, `position` in its tuple of
    targets, or None for the whole), `loop` (what a `for` iterates over, for its lone target), or
    neither (an import, a `with`, a tuple a loop unpacks: never symbolic)."""

    end: int  # the line after which it holds (its statement's last line)
    line: int  # its statement's first line: what its value reads is bound before
    value: ast.expr | None = None
    position: int | None = None
    loop: ast.expr | None = None
    parameter: bool = False


@dataclass
class _Scope:
    """What one scope (the module, or a function) holds that the flow reads, collected once."""

    key: str | None  # its qualified name ("" for the module); None when the file defines it twice
    parent: str | None  # the key of the scope around it (None for the module)
    line: int  # of its `def`; 0 for the module
    function: str  # its name when the flow follows its calls (`Class.name` for a method), else ""
    owner: str  # the qualified name of its class when it is a method (and that is unique), else ""
    bindings: dict[str, list[_Binding]] = field(default_factory=dict)  # by `end`
    keras: set[str] = field(default_factory=set)  # names bound to `tf.keras.*(...)`
    calls: list[ast.Call] = field(
        default_factory=list
    )  # not in a `try` catching what symbolic values make fail
    returns: list[ast.expr | None] = field(default_factory=list)  # None: a bare `return`, a `yield`
    attributes: list[tuple[str, ast.expr]] = field(default_factory=list)  # `self.x = value` in a method
    # every binding in the order they hold, judged in that order (`_Values.why`): what a value reads
    # is bound before it, so judging one never waits on a later one (nor recurses down a chain of
    # thousands of `x = layer(x)`)
    order: list[tuple[int, str, _Binding]] = field(default_factory=list)

    def bind(self, name: str, binding: _Binding) -> None:
        found = self.bindings.setdefault(name, [])
        bisect.insort(found, binding, key=lambda b: b.end)


_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _scopes(
    tree: ast.Module, aliases: dict[str, str], functions: dict[str, ast.FunctionDef]
) -> tuple[list[_Scope], dict[str, ast.FunctionDef]]:
    """The module's scope and every function's, outer scopes first, each with its qualified name;
    methods with their class's. Also the functions whose calls the flow follows, by the name a
    call gives (`_Values.callee`): `functions`, and the methods `self.name(...)` reaches for sure
    (`Class.name`): not decorated, in a class the file defines once, and their name is no other
    method's or function's of the file (a subclass could override it)."""
    found: list[tuple[_Definition, str, str | None, str]] = []  # (definition, qualified name, parent, class)
    queue: list[tuple[ast.AST, str, str, str]] = [(tree, "", "", "")]  # (node, path, scope, class)
    while queue:
        node, path, parent, owner = queue.pop(0)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualified = f"{path}.{child.name}" if path else child.name
                if isinstance(child, ast.ClassDef):
                    found.append((child, qualified, None, ""))
                    queue.append((child, qualified, parent, qualified))
                else:
                    found.append((child, qualified, parent, owner))
                    queue.append((child, qualified, qualified, ""))
            else:
                queue.append((child, path, parent, owner))
    defined: dict[str, int] = {}
    for _, qualified, _, _ in found:
        defined[qualified] = defined.get(qualified, 0) + 1
    names: dict[str, int] = {}
    for definition, _, _, _ in found:
        names[definition.name] = names.get(definition.name, 0) + 1
    callables = dict(functions)
    scopes = [_scope(tree, aliases, _Scope("", None, 0, "", ""))]
    for definition, qualified, around, of_class in found:
        if isinstance(definition, ast.ClassDef):
            continue
        key = qualified if defined[qualified] == 1 else None
        owner = of_class if of_class and defined[of_class] == 1 else ""
        callable_name = definition.name if functions.get(definition.name) is definition else ""
        if (
            owner
            and isinstance(definition, ast.FunctionDef)
            and not definition.decorator_list
            and names[definition.name] == 1
            and [a.arg for a in definition.args.args[:1]] == ["self"]
        ):
            callable_name = f"{owner}.{definition.name}"
            callables[callable_name] = definition
        scopes.append(
            _scope(definition, aliases, _Scope(key, around, definition.lineno, callable_name, owner))
        )
    return scopes, callables


def _scope(node: ast.AST, aliases: dict[str, str], scope: _Scope) -> _Scope:
    arguments = getattr(node, "args", None)
    if arguments is not None:
        for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            scope.bind(argument.arg, _Binding(scope.line, scope.line, parameter=True))
        for argument in (arguments.vararg, arguments.kwarg):
            if argument is not None:
                scope.bind(argument.arg, _Binding(scope.line, scope.line))
    first_parameter = arguments.args[0].arg if arguments is not None and arguments.args else ""
    self_name = "self" if scope.owner and first_parameter == "self" else ""
    guarded: set[int] = set()
    for statement in statements(node):
        first, end = statement.lineno, statement.end_lineno or statement.lineno
        if isinstance(statement, ast.Try) and any(
            handler.type is None
            or {last_name(kind) for kind in getattr(handler.type, "elts", [handler.type])} & _BREAKS_CAUGHT
            for handler in statement.handlers
        ):
            guarded.update(id(n) for inner in statement.body for n in ast.walk(inner))
        bound: set[int] = set()  # the names this statement's own cases bind
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets: list[ast.expr] = (
                statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            )
            for target in targets:
                if isinstance(target, ast.Name):
                    scope.bind(target.id, _Binding(end, first, statement.value))
                    bound.add(id(target))
                elif isinstance(target, (ast.Tuple, ast.List)):
                    for position, item in enumerate(target.elts):
                        if isinstance(item, ast.Name):
                            scope.bind(item.id, _Binding(end, first, statement.value, position))
                            bound.add(id(item))
                elif (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == self_name != ""
                ):
                    scope.attributes.append((target.attr, statement.value))
            if isinstance(statement.value, ast.Call) and ast_qualified_name(
                statement.value.func, aliases
            ).startswith("tensorflow.keras."):
                scope.keras.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(statement, (ast.For, ast.AsyncFor)) and isinstance(statement.target, ast.Name):
            scope.bind(statement.target.id, _Binding(first, first, loop=statement.iter))
            bound.add(id(statement.target))
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
            bound.add(id(statement.target))  # `x += 1` keeps what `x` is; `x: int` binds nothing
        elif isinstance(statement, ast.Return):
            scope.returns.append(statement.value)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope.bind(statement.name, _Binding(first, first))
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                scope.bind((alias.asname or alias.name).partition(".")[0], _Binding(end, first))
        for child in _own_nodes(statement):
            if isinstance(child, ast.comprehension):
                target = child.target
                loop = child.iter if isinstance(target, ast.Name) else None
                for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
                    scope.bind(
                        name.id, _Binding(first - 1, first - 1, loop=loop)
                    )  # read within the statement
                    bound.add(id(name))
            elif isinstance(child, ast.Call) and id(child) not in guarded:
                scope.calls.append(child)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store) and id(child) not in bound:
                scope.bind(child.id, _Binding(end, first))  # `with ... as x`, `for a, b in`, `(x := ...)`
            elif isinstance(child, (ast.Yield, ast.YieldFrom)):
                scope.returns.append(None)  # a generator returns no symbolic value
    scope.order = sorted(
        ((binding.end, name, binding) for name, found in scope.bindings.items() for binding in found),
        key=lambda entry: entry[0],
    )
    return scope


def statements(scope: ast.AST) -> Iterator[ast.stmt]:
    """The statements of a module's or a function's own scope (not of nested functions or classes)."""
    for block in blocks(scope):
        yield from block


def _own_nodes(statement: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `statement`, lambdas' bodies, nested statements and definitions left out."""
    stack = [statement]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(
            child
            for child in ast.iter_child_nodes(node)
            if not isinstance(
                child, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.stmt)
            )
        )


class _Values:
    """What the names of one scope are, line by line, given what the flow knows so far."""

    def __init__(self, scope: _Scope, aliases: dict[str, str], flow: SymbolicFlow, parent: _Values | None):
        self.scope, self.aliases, self.flow, self.parent = scope, aliases, flow, parent
        self._known: dict[tuple[str, int], str | None] = {}
        self._judged = 0  # how many of `scope.order` are judged

    def why(self, name: str, line: int) -> str | None:
        """Why `name`, read on `line`, is a Keras symbolic value: by its last binding before `line`
        in this scope, or in the scope around when this one never binds it."""
        found = self.scope.bindings.get(name)
        if found is None:
            return self.parent.why(name, _AFTER_ALL) if self.parent is not None else None
        index = bisect.bisect_left(found, line, key=lambda b: b.end) - 1
        if index < 0:
            return None
        end = found[index].end
        order = self.scope.order
        while self._judged < len(order) and order[self._judged][0] <= end:
            _, bound, binding = order[self._judged]
            self._judged += 1
            key = (bound, binding.end)
            if key not in self._known:
                self._known[key] = None  # a name read in its own binding's value is not symbolic by it
                self._known[key] = self._binding_why(bound, binding)
        return self._known.get((name, end))

    def verdicts(self, name: str) -> list[str | None]:
        """Why each binding of `name` in this scope holds a Keras symbolic value (None: it does
        not), in the order they hold."""
        self.why(name, _AFTER_ALL)
        return [self._known.get((name, binding.end)) for binding in self.scope.bindings[name]]

    def _binding_why(self, name: str, binding: _Binding) -> str | None:
        if binding.parameter:
            return self.flow.parameters.get((self.scope.function, name)) if self.scope.function else None
        if binding.loop is not None:
            return (
                f"`{name}` iterates over `{ast.unparse(binding.loop)}`"
                if self.collection(binding.loop)
                else None
            )
        value = binding.value
        if value is None or (isinstance(value, ast.Call) and _traces(value, self.aliases)):
            return None
        returned = self.returned(value)
        if returned is not None:  # `outputs = build()`, `inputs, outputs = build()`
            positions, why = returned
            if positions is None or binding.position in positions:
                return f"`{name}` is bound on line {binding.line} to what {why}"
            return None
        if self.carries(value):
            return f"`{name}` is computed on line {binding.line} from a Keras symbolic value"
        return None

    def carries(self, value: ast.expr) -> bool:
        """Whether `value` is, or is computed from, a Keras symbolic value."""
        return any(self.symbolic(node) for node in _value_nodes(value))

    def symbolic(self, node: ast.expr) -> bool:
        """Whether `node` is a Keras symbolic value: `Input(...)`, a name bound to one, a model's
        `.input(s)` / `.output(s)` (an item of them too), an attribute of `self` the flow found
        symbolic, or the call of a function of the file that returns one."""
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Name):
            return self.why(node.id, node.lineno) is not None
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and (self.scope.owner, node.attr) in self.flow.attributes:
                return node.value.id == "self"
            return node.attr in SYMBOLIC_ATTRIBUTES and _keras_object(
                node.value, self.aliases, self.scope.keras
            )
        returned = self.returned(node)
        return (returned is not None and returned[0] is None) or _is_input_call(node, self.aliases)

    def callee(self, call: ast.expr) -> str:
        """The function of the file `call` calls, by the name `_scopes` keys it (`build`,
        `Builder.block` for `self.block(...)` in a method of `Builder`), or ""."""
        if not isinstance(call, ast.Call):
            return ""
        func = call.func
        if isinstance(func, ast.Name):
            return func.id
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            return f"{self.scope.owner}.{func.attr}" if self.scope.owner else ""
        return ""

    def returned(self, value: ast.expr) -> tuple[frozenset[int] | None, str] | None:
        """What the flow knows `value` returns when it calls a function of the file, with why."""
        callee = self.callee(value)
        return self.flow.returns.get(callee) if callee else None

    def collection(self, node: ast.expr) -> bool:
        """Whether every item of `node` is a Keras symbolic value: a model's `.inputs` /
        `.outputs`, a list or tuple of such values."""
        if isinstance(node, ast.Attribute):
            return node.attr in ("inputs", "outputs") and _keras_object(
                node.value, self.aliases, self.scope.keras
            )
        if isinstance(node, (ast.List, ast.Tuple)):
            return bool(node.elts) and all(self.symbolic(e) for e in node.elts)
        return False


def _passed_parameters(values: _Values, functions: dict[str, ast.FunctionDef]) -> None:
    """Note in the flow the parameters of plain functions that the scope's calls pass a Keras
    symbolic value."""
    parameters = values.flow.parameters
    for call in values.scope.calls:
        callee = values.callee(call)
        function = functions.get(callee) if callee else None
        if function is None:
            continue
        for parameter, argument in _bound(function, call, method="." in callee):
            if (callee, parameter) not in parameters and values.symbolic(argument):
                parameters[(callee, parameter)] = (
                    f"`{parameter}` is a parameter of `{callee}`, which line {call.lineno} "
                    f"calls with `{ast.unparse(argument)}`, a Keras symbolic value"
                )


def _symbolic_returns(values: _Values) -> tuple[frozenset[int] | None, str] | None:
    """`(None, why)` when every `return` of the scope gives a Keras symbolic value, `(positions,
    why)` when every one gives a tuple of one length with such values at `positions`, else None."""
    returns = values.scope.returns
    if not returns or any(value is None for value in returns):
        return None
    why = f"`{values.scope.function}(...)` returns, a Keras symbolic value"
    tuples = [value for value in returns if isinstance(value, ast.Tuple)]
    if not tuples and all(values.carries(value) for value in returns if value is not None):
        return None, why
    if len(tuples) != len(returns) or len({len(t.elts) for t in tuples}) != 1:
        return None
    positions = frozenset.intersection(
        *(frozenset(i for i, item in enumerate(t.elts) if values.carries(item)) for t in tuples)
    )
    return (positions, why) if positions else None


def _value_nodes(value: ast.expr) -> Iterator[ast.expr]:
    """The parts of `value` that can carry a symbolic value into it: not an attribute's receiver
    (`inputs.shape` is no symbolic value), nor a lambda's body, nor the function of a call."""
    stack = [value]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.Attribute, ast.Lambda)):
            continue
        stack.extend(
            child
            for child in ast.iter_child_nodes(node)
            if isinstance(child, ast.expr) and not (isinstance(node, ast.Call) and child is node.func)
        )


def _traces(call: ast.Call, aliases: dict[str, str]) -> bool:
    """Whether `call` traces a function: `tf.function(...)`, `.get_concrete_function(...)`,
    `convert_variables_to_constants_v2(...)`."""
    if isinstance(call.func, ast.Attribute) and call.func.attr == "get_concrete_function":
        return True
    return ast_qualified_name(call.func, aliases) in TRACERS


def _is_input_call(node: ast.expr, aliases: dict[str, str]) -> bool:
    """Whether `node` is a call of `tf.keras.Input` (any spelling through the imports)."""
    return isinstance(node, ast.Call) and ast_qualified_name(node.func, aliases) in INPUTS


def _keras_object(node: ast.expr, aliases: dict[str, str], keras: set[str]) -> bool:
    """Whether `node` is visibly a Keras model or layer, as `_symbolic.is_keras_object` tells:
    named as one (`model`, `self.encoder_layer`), a name in `keras` (bound to a `tf.keras.*`
    construction), or such a construction or `get_layer(...)` itself."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get_layer":
            return True
        return ast_qualified_name(node.func, aliases).startswith("tensorflow.keras.")
    last = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return bool(KERAS_NAME.search(last)) or (isinstance(node, ast.Name) and node.id in keras)


def _plain_functions(tree: ast.Module, aliases: dict[str, str]) -> dict[str, ast.FunctionDef]:
    """The functions of the module (at its top level or in other functions, not in classes) whose
    name the file binds once, by that `def` (not an assignment, nor an import of `aliases`), not
    decorated (`tf.function` may give a function other values than the call's)."""
    counts: dict[str, int] = {}
    plain: dict[str, ast.FunctionDef] = {}
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_class = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                counts[child.name] = counts.get(child.name, 0) + 1
                if not in_class and isinstance(child, ast.FunctionDef) and not child.decorator_list:
                    plain[child.name] = child
            stack.append(
                (
                    child,
                    isinstance(child, ast.ClassDef) or (in_class and not isinstance(child, ast.FunctionDef)),
                )
            )
    rebound = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    } | aliases.keys()
    return {name: function for name, function in plain.items() if counts[name] == 1 and name not in rebound}


def _bound(function: ast.FunctionDef, call: ast.Call, method: bool) -> Iterator[tuple[str, ast.expr]]:
    """`(parameter, argument)` as `call` binds its arguments to `function`'s parameters (those after
    a `*args` or before a `**kwargs` of the call left out; a `method`'s `self` too)."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][1 if method else 0 :]
    for parameter, argument in zip(positional, call.args, strict=False):
        if isinstance(argument, ast.Starred):
            break
        yield parameter, argument
    named = set(positional[len(call.args) :]) | {a.arg for a in function.args.kwonlyargs}
    for keyword in call.keywords:
        if keyword.arg in named:
            yield keyword.arg, keyword.value
