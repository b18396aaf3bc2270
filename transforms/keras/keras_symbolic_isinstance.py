"""TF24210 `keras-symbolic-isinstance`: `isinstance(x, tf.Tensor)` is False for Keras symbolic inputs from
TF 2.4."""

from __future__ import annotations

import builtins

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated, code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import dotted_parts
from tf24migrate.rules.needles import word

from ._symbolic import (
    EVIDENCE_TRIGGERS,
    EVIDENCE_WORDS,
    symbolic_evidence,
)


def _is_builtin_call(ctx: RuleContext, call: cst.Call, name: str) -> bool:
    return isinstance(call.func, cst.Name) and call.func.value == name and ctx.binding(name) is None


def _parameters(function: cst.FunctionDef) -> tuple[list[cst.Param], dict[str, cst.Param]]:
    """The parameters a call's positional arguments fill, in order, and every parameter a keyword
    can name, by name."""
    params = function.params
    positional = [*params.posonly_params, *params.params]
    by_name = {p.name.value: p for p in (*params.params, *params.kwonly_params)}
    return positional, by_name


def _names_a_tensor(kind: cst.BaseExpression) -> bool:
    """Whether `kind`, or an item of it (a tuple), is spelled `...Tensor` (`tf.Tensor`, `Tensor`)."""
    kinds = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
    return any((dotted_parts(k) or [""])[-1] == "Tensor" for k in kinds)


def _checks_with_isinstance(function: cst.FunctionDef, name: str) -> bool:
    """Whether `function`'s body holds `isinstance(name, <...Tensor>)` (which the rules' next pass
    reads with the names resolved)."""
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and node.func.value == "isinstance"
            and len(node.args) == 2
            and isinstance(node.args[0].value, cst.Name)
            and node.args[0].value.value == name
            and _names_a_tensor(node.args[1].value)
        ):
            return True
        stack.extend(node.children)
    return False


_BUILTINS = frozenset(dir(builtins))


def _places(call: cst.Call) -> list[tuple[tuple[str, int | str], cst.Arg]]:
    """Each argument of `call` with its place (`("position", 0)`, `("keyword", "x")`); none when
    a `*args` / `**kwargs` hides which parameter gets what."""
    if any(arg.star for arg in call.args):
        return []
    return [
        ((("keyword", arg.keyword.value) if arg.keyword is not None else ("position", index)), arg)
        for index, arg in enumerate(call.args)
    ]


def _nth(params: list[cst.Param], index: int) -> cst.Param | None:
    return params[index] if index < len(params) else None


def _called_with(arg: cst.Arg, evidence: str) -> str:
    return f"which this file calls with `{abbreviated(arg.value)}`: {evidence}"


def _parameter_of(param: cst.Param, function: str, called_with: str) -> str:
    """The evidence for `param` that a call of `function` gives (`_called_with`)."""
    return f"`{param.name.value}` is a parameter of `{function}`, {called_with}"


def _enclosing_function(ctx: RuleContext, param: cst.Param) -> cst.FunctionDef | None:
    """The function `param` is a parameter of, among those around the node being left."""
    for node in ctx.ancestors:
        if isinstance(node, cst.FunctionDef):
            positional, by_name = _parameters(node)
            if param in positional or param in by_name.values():
                return node
    return None


class KerasSymbolicIsinstance(Rule):
    """`isinstance(x, tf.Tensor)` is False for Keras symbolic inputs from TF 2.4.

    Functional models are built from `KerasTensor`s, which are not `tf.Tensor`s; the release notes
    recommend `tf.is_tensor(x)`, which is True for them on TF 2.4–2.15 and with tf_keras. The
    rewrite is unsafe: `tf.is_tensor` is also True for variables, sparse and ragged tensors, and
    under Keras 3 (the default `tf.keras` from TF 2.16) it is False for symbolic values, where
    `tf.keras.backend.is_keras_tensor(x)` is the check. A tuple of types is reported, not rewritten.

    Reported only with evidence in the file that `x` is a Keras symbolic value: `x` is bound to
    `tf.keras.Input(...)` (or computed from such a name, as `h = Dense(8)(inputs)`) in the same
    scope, or iterates over a model's `.inputs` / `.outputs` (or a list, a tuple or a dictionary's
    `.values()` of such values), or `x` is a model's `.input(s)` / `.output(s)`, or `x` is a
    parameter of a function of the file (not decorated) that the file calls by its name with such
    a value, after defining it or in the body of a function before it (`def check(x): ...
    isinstance(x, tf.Tensor)` and `check(model.output)`, or `check(out)` in `for out in
    model.outputs:`): the check is reported where it is, in the function. Everywhere else (a
    `tf.function` argument, a shape dimension, a loss normaliser, a tensor of TF 1 graph code, a
    parameter no call of the file gives a symbolic value) `isinstance(x, tf.Tensor)` means what it
    meant in TF 2.3, and is left alone.

    Before: `inputs = tf.keras.Input((3,))` then `if isinstance(inputs, tf.Tensor): ...`
    After:  `inputs = tf.keras.Input((3,))` then `if tf.is_tensor(inputs): ...`

    Versions: `tf.is_tensor` exists since TF 2.0 (tensorflow_core/_api/v2/v2.py of the tensorflow 2.0.0
    wheel); the Functional API change is in TF 2.4's release notes.
    """

    code = "TF24210"
    name = "keras-symbolic-isinstance"
    new_since = "2.0"
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.WARNING
    triggers = (word("isinstance"),)
    # `Tensor` as a name (`_names_a_tensor`), not in `TensorShape`, `TensorSpec` nor `KerasTensor`
    requires = (*IMPORTS_TENSORFLOW, EVIDENCE_WORDS, word("Tensor"))
    follows = EVIDENCE_TRIGGERS

    def _note_symbolic_arguments(self, ctx: RuleContext, call: cst.Call) -> None:
        """At a call of a function of the file, note each parameter that receives a symbolic value
        and that the function checks with `isinstance`: the rules run again, and the check is
        reported in the function (`_parameter_evidence`). A call in a function's body of a name
        not bound yet (a function the module defines further down) is noted by the name and the
        argument's place, and matched with the module's function at its end (`leave_Module`)."""
        if not isinstance(call.func, cst.Name) or not ctx.is_reference(call.func):
            return
        name = call.func.value
        binding = ctx.binding(name)
        if binding is None:
            if name not in _BUILTINS and any(
                isinstance(a, (cst.FunctionDef, cst.Lambda)) for a in ctx.ancestors
            ):
                for place, arg in _places(call):
                    evidence = symbolic_evidence(ctx, arg.value)
                    if evidence is not None:
                        ctx.block((self.code, name, place), _called_with(arg, evidence))
            return
        function = binding.node
        if not isinstance(function, cst.FunctionDef) or function.decorators:
            return  # a decorator (`tf.function`, ...) may give the function other values than the call's
        positional, by_name = _parameters(function)
        for place, arg in _places(call):
            kind, key = place
            param = by_name.get(str(key)) if kind == "keyword" else _nth(positional, int(key))
            if param is None or not _checks_with_isinstance(function, param.name.value):
                continue
            evidence = symbolic_evidence(ctx, arg.value)
            if evidence is not None:
                ctx.block(
                    (self.code, function, param.name.value),
                    _parameter_of(param, name, _called_with(arg, evidence)),
                )

    def leave_Module(self, ctx: RuleContext, original: cst.Module, updated: cst.Module) -> cst.Module:
        """Match the calls noted before their function was defined (`_note_symbolic_arguments`)
        with the function the module's name is bound to at its end."""
        for statement in original.body:
            function = statement if isinstance(statement, cst.FunctionDef) else None
            if function is None or function.decorators:
                continue
            binding = ctx.binding(function.name.value)
            if binding is None or binding.node is not function:
                continue  # the name is bound to something else at the end of the module
            positional, by_name = _parameters(function)
            places = [
                *((("position", i), p) for i, p in enumerate(positional)),
                *((("keyword", k), p) for k, p in by_name.items()),
            ]
            for place, param in places:
                found = ctx.blocked_reason((self.code, function.name.value, place))
                if found is not None and _checks_with_isinstance(function, param.name.value):
                    ctx.block(
                        (self.code, function, param.name.value),
                        _parameter_of(param, function.name.value, found),
                    )
        return updated

    def _parameter_evidence(self, ctx: RuleContext, value: cst.BaseExpression) -> str | None:
        """The evidence a call later in the file gave for the parameter `value` (the rules' earlier
        pass found it: `_note_symbolic_arguments`)."""
        if not isinstance(value, cst.Name) or not ctx.is_reference(value):
            return None
        binding = ctx.binding(value.value)
        param = binding.node if binding is not None else None
        if not isinstance(param, cst.Param):
            return None
        function = _enclosing_function(ctx, param)
        if function is None:
            return None
        return ctx.blocked_reason((self.code, function, value.value))

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not _is_builtin_call(ctx, original, "isinstance"):
            self._note_symbolic_arguments(ctx, original)
            return updated
        if len(original.args) != 2 or any(arg.star or arg.keyword for arg in original.args):
            return updated
        value, kind = original.args
        evidence = symbolic_evidence(ctx, value.value) or self._parameter_evidence(ctx, value.value)
        if evidence is None:
            return updated
        shown = abbreviated(value.value)
        what = f"`isinstance({shown}, tf.Tensor)` is False for Keras symbolic values from TF 2.4"
        why = (
            f"{evidence[:1].upper()}{evidence[1:]}; they are `KerasTensor`s now. `tf.is_tensor({shown})` "
            "is True for them on TF 2.4–2.15 and tf_keras (also for variables, sparse and ragged tensors); "
            f"under Keras 3 use `tf.keras.backend.is_keras_tensor({shown})` for symbolic values."
        )
        if isinstance(kind.value, cst.Tuple):
            if any(ctx.qualified_name(e.value) == "tensorflow.Tensor" for e in kind.value.elements):
                ctx.report(
                    original,
                    f"{what}: take `tf.Tensor` out of the tuple and add `or tf.is_tensor({shown})`.\n{why}",
                    evidence=evidence,
                )
            return updated
        if ctx.qualified_name(kind.value) != "tensorflow.Tensor":
            return updated
        is_tensor = ctx.spell("tensorflow.is_tensor", like=kind.value)
        message = f"{what}: use `tf.is_tensor({shown})`.\n{why}"
        if is_tensor is None:
            ctx.report(original, message, evidence=evidence)
            return updated
        argument = updated.args[0]
        comma_has_comment = isinstance(argument.comma, cst.Comma) and "#" in code_for(argument.comma)
        if not comma_has_comment:
            argument = argument.with_changes(comma=cst.MaybeSentinel.DEFAULT)
        replacement = updated.with_changes(func=is_tensor, args=[argument])
        return ctx.report(original, message, replacement=replacement, evidence=evidence) or updated


RULES = (KerasSymbolicIsinstance(),)
