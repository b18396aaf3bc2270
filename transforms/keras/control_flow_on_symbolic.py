"""TF24214 `control-flow-on-symbolic`: `tf.cond`, `tf.while_loop` and `tf.map_fn`, the TF
functions that do not dispatch, or whose op layer returns an Operation (found from the released
wheels: `tf24migrate/model/symbolic_dispatch.py`), and the file's `tf.custom_gradient` and
`tf.recompute_grad` functions cannot take Keras symbolic inputs from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.model.symbolic_dispatch import BY_KEYWORD, NOT_DISPATCHED, OP_LAYER_FAILS, STRUCTURE_FAILS
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.needles import NotDispatchedCall, word

from .._text import assigned_value
from ._symbolic import EVIDENCE_TRIGGERS, EVIDENCE_WORDS, INPUTS, caught, symbolic_names

_CONTROL_FLOW = {"tensorflow.cond", "tensorflow.while_loop", "tensorflow.map_fn"}
# TF functions that are not control flow but do not dispatch on `KerasTensor`s either, with the
# parameters that cannot take one: TF 2.4.0 raises TypeError ("Cannot convert a symbolic Keras
# input/output to a numpy array"), TF 2.3.0 made an op layer (both run:
# tests/integration/reports/r77_reverse_sequence_on_input.py, r110, r113, r114).
_NOT_DISPATCHED = {name: parameters for names, parameters in NOT_DISPATCHED for name in names}
# TF functions that do dispatch, but return an Operation, for which Keras's op layer builds no
# TypeSpec: TF 2.4.0 raises TypeError where TF 2.3.0 checked a Keras input's static shape (the rank
# assertions; both run by the probe: tests/integration/reports/r153_assert_rank_in_on_input.py).
# The other rows of `OP_LAYER_FAILS` fail for the values of the other arguments too
# (`tf.scalar_mul(2, x)` raises, `tf.scalar_mul(2.0, x)` runs): not reported.
_RETURNS_OPERATION = {
    name: parameters for names, parameters, what in OP_LAYER_FAILS if what == "Operation" for name in names
}
# TF functions that do dispatch, but whose op layer fails where a parameter holds a structure with
# a Keras symbolic value in it, where TF 2.3.0 ran the same call (`symbolic_dispatch.STRUCTURE_FAILS`,
# both runtimes probed), with each structure so failing (`_structure`) and what it raised:
# `tf.debugging.assert_shapes([(x, ("N", 3))])`, whose op layer turns the Python numbers of its
# first argument into tensors (`[(x, ("N", "D"))]` runs), and `tf.compat.v1`'s, which returns an
# Operation (rule_programs/TF24214-structure-shapes.py).
_STRUCTURE_FAILS = {
    name: (parameters, dict(failed)) for names, parameters, failed in STRUCTURE_FAILS for name in names
}
# A function made by `tf.custom_gradient` or `tf.recompute_grad` does not dispatch either: TF 2.4.0
# raises the same TypeError, TF 2.3.0 made an op layer (tests/integration/reports/
# r76_custom_gradient_on_input.py, r115_recompute_grad_on_input.py).
_MAKERS = {
    "tensorflow.custom_gradient": "tf.custom_gradient",
    "tensorflow.python.ops.custom_gradient.custom_gradient": "tf.custom_gradient",
    "tensorflow.recompute_grad": "tf.recompute_grad",
    "tensorflow.python.ops.custom_gradient.recompute_grad": "tf.recompute_grad",
}


# `a & b` of boolean tensors is `tf.math.logical_and` through `Tensor.__and__`, which does not
# dispatch: TF 2.4.0 raises the same TypeError on a boolean `KerasTensor`, where `|`, `^`, `~` and
# an integer `&` dispatch (run on TF 2.3.0 and 2.4.0: rule_programs/TF24214-boolean-and.py).
_BOOLEAN_FUNCTIONS = {
    f"tensorflow.{module}{name}"
    for module in ("", "math.")
    for name in (
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "is_nan",
        "is_inf",
        "is_finite",
    )
} | {"tensorflow.sequence_mask"}
# where a call that makes a tensor of a given dtype takes the dtype positionally:
# `tf.cast(x, dtype)`, `tf.keras.Input(shape, batch_size, name, dtype)` (standalone Keras's too)
_DTYPE_POSITION = {
    **dict.fromkeys(("tensorflow.cast", "tensorflow.dtypes.cast"), 1),
    **dict.fromkeys((*INPUTS, "keras.Input", "keras.layers.Input"), 3),
}
_BOOL = {"tensorflow.bool", "tensorflow.dtypes.bool"}


def _is_bool_dtype(ctx: RuleContext, node: cst.BaseExpression) -> bool:
    """Whether `node` spells the boolean dtype: `tf.bool` or `"bool"`."""
    if isinstance(node, cst.SimpleString):
        return node.value[1:-1] == "bool"
    return ctx.qualified_name(node) in _BOOL


def _boolean(ctx: RuleContext, node: cst.BaseExpression, depth: int = 2) -> bool:
    """Whether `node` is a boolean tensor, as the code shows: a comparison, a logical function,
    a cast to `tf.bool`, an `Input` of `dtype=tf.bool`, or a name bound to one (`depth` names
    deep)."""
    if isinstance(node, cst.Comparison):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
        return _boolean(ctx, node.expression, depth)
    if isinstance(node, cst.BinaryOperation) and isinstance(
        node.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)
    ):
        return _boolean(ctx, node.left, depth) or _boolean(ctx, node.right, depth)
    if isinstance(node, cst.Call):
        called = ctx.qualified_name(node.func)
        if called in _BOOLEAN_FUNCTIONS:
            return True
        at = _DTYPE_POSITION.get(called or "")
        if at is None:
            return False
        positional = [arg for arg in node.args if arg.keyword is None and not arg.star]
        named = [arg for arg in node.args if arg.keyword is not None and arg.keyword.value == "dtype"]
        return any(_is_bool_dtype(ctx, arg.value) for arg in (*positional[at : at + 1], *named))
    if isinstance(node, cst.Name) and depth:
        value = assigned_value(ctx, node)
        return value is not None and _boolean(ctx, value, depth - 1)
    return False


def _maker(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    """`tf.custom_gradient` or `tf.recompute_grad` where `node` names one of them, else None."""
    return _MAKERS.get(ctx.qualified_name(node) or "")


def _made_function(ctx: RuleContext, func: cst.BaseExpression) -> tuple[str, str] | None:
    """The code naming `func` and the function that made it, when `func` is a function made by
    `tf.custom_gradient` or `tf.recompute_grad`: a function of the file decorated with one, a name
    bound to `tf.recompute_grad(f)` in the same scope, or that call itself; else None."""
    if isinstance(func, cst.Call):
        maker = _maker(ctx, func.func)
        return (abbreviated(func), maker) if maker else None
    if not isinstance(func, cst.Name) or not ctx.is_reference(func):
        return None
    binding = ctx.binding(func.value)
    bound_by = binding.node if binding is not None and not binding.is_import else None
    if isinstance(bound_by, cst.FunctionDef):
        maker = next(filter(None, (_maker(ctx, d.decorator) for d in bound_by.decorators)), None)
    else:
        value = assigned_value(ctx, func)
        maker = _maker(ctx, value.func) if isinstance(value, cst.Call) else None
    return (func.value, maker) if maker else None


def _arguments_of(call: cst.Call, parameters: tuple[tuple[str, int], ...]) -> list[cst.Arg]:
    """The arguments of `call` that fill one of `parameters` (`(name, position)`, -1 for a
    keyword-only one); positions after a `*args` are unknown, hence left out."""
    positions = {position for _, position in parameters if position >= 0}
    names = {name for name, _ in parameters}
    chosen, position = [], 0
    for arg in call.args:
        if arg.star == "*":
            positions = set()
        elif arg.keyword is not None:
            if arg.keyword.value in names:
                chosen.append(arg)
        elif not arg.star:
            if position in positions:
                chosen.append(arg)
            position += 1
    return chosen


def _literal(ctx: RuleContext, node: cst.BaseExpression) -> cst.List | cst.Tuple | None:
    """`node` where it is a list or a tuple written out, or the one a name is bound to here."""
    if isinstance(node, cst.Name):
        node = assigned_value(ctx, node) or node
    return node if isinstance(node, (cst.List, cst.Tuple)) else None


def _holds_number(node: cst.BaseExpression) -> bool:
    """Whether the shape `node` holds a Python number written out: `("N", 3)`, `[None, -1]`; not
    an object a call makes (`tf.TensorShape([3])`, which Keras leaves whole), nor a name (the
    statement binding it holds no symbolic value, so the engine may have skipped it)."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.UnaryOperation):
        return _holds_number(node.expression)
    if isinstance(node, (cst.List, cst.Tuple)):
        return any(_holds_number(element.value) for element in node.elements)
    return False


def _structure(ctx: RuleContext, node: cst.BaseExpression) -> tuple[str, list[tuple[cst.Name, str]]]:
    """How the argument `node` holds Keras symbolic values, named as the probe's structures
    (`symbolic_dispatch.STRUCTURE_FAILS`), and the names traced to one with their evidence: a
    list or a tuple (or a name bound to one) of (value, shape) pairs, "pairs" where a shape holds
    a Python number, else "shape pairs"; of values, "tensors"; ("", []) where it holds none."""
    literal = _literal(ctx, node)
    if literal is None:
        return "", []
    items = [element.value for element in literal.elements if not isinstance(element, cst.StarredElement)]
    pairs = [item for item in items if isinstance(item, (cst.List, cst.Tuple)) and len(item.elements) == 2]
    if pairs and len(pairs) == len(items):
        names = [found for pair in pairs for found in symbolic_names(ctx, pair.elements[0].value)]
        numbers = any(_holds_number(pair.elements[1].value) for pair in pairs)
        return ("pairs" if numbers else "shape pairs"), names
    return "tensors", [found for item in items for found in symbolic_names(ctx, item)]


class ControlFlowOnSymbolic(Rule):
    """`tf.cond`, `tf.while_loop`, `tf.map_fn` and the TF functions that do not dispatch cannot
    take Keras symbolic inputs from TF 2.4.

    TF 2.3 built the Functional API from graph tensors, and any TF function applied to a Keras
    input became part of the model (an op layer). TF 2.4's `tf.keras.Input(...)` is a
    `KerasTensor`, which a TF function takes only where it dispatches, handing the call to Keras;
    elsewhere TF 2.4 raises `TypeError` ("Cannot convert a symbolic Keras input/output to a numpy
    array"), hence the severity. Control flow does not support `KerasTensor`s at all. Which
    functions do not dispatch, and which of their parameters cannot take a `KerasTensor`, is found
    from the released TF 2.4.0 wheel by `python -m tf24migrate.dev releases` (`tf.signal.rfft`,
    `tf.math.bincount`, `tf.io.decode_jpeg`, `tf.reverse_sequence`,
    `tf.compat.v1.image.resize_bilinear`, generated ops as `gen_cudnn_rnn_ops.cudnn_rnn`, ...),
    also where another parameter must hold a variable or a shape for the call to reach the
    conversion: the value given to `tf.compat.v1.assign(ref, value)`, `tf.keras.backend.update(x,
    new_x)` and `update_add`, the input of `tf.compat.v1.placeholder_with_default(input, shape)`, and
    where the function makes an op layer of it before a conversion that does not dispatch (the
    `value` of `tf.keras.backend.moving_average_update(x, value, momentum)`). The TF 1 functions that
    take a `_sentinel` first (`tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(labels=...,
    logits=...)`) dispatch, but their op layer wants that first argument, which a call by keyword
    leaves out: they raise `ValueError` (`symbolic_dispatch.BY_KEYWORD`). A
    function made by `tf.custom_gradient` or `tf.recompute_grad` (a function of the file decorated
    with one, or a name bound to `tf.recompute_grad(f)`) does not dispatch either: the message says
    to apply a custom-gradient function through a layer, `tf.keras.layers.Lambda(f)(inputs)`, which
    keeps its gradient, and to call a recomputed one in a custom layer's `call`, whose `__init__`
    makes the layers it uses (executed on TF 2.3.0 and 2.4.0). So is `a & b` of boolean values
    (a comparison, a logical function, a cast to `tf.bool` or an `Input` of `dtype=tf.bool`, or a
    name bound to one): for booleans `&` is `tf.math.logical_and` through `Tensor.__and__`, which does
    not dispatch, while `tf.math.logical_and(a, b)` written out does (`|`, `^`, `~` and an integer
    `&` dispatch). And the functions that dispatch but return an Operation, where TF 2.3.0 ran
    the same call of a Keras input (`symbolic_dispatch.OP_LAYER_FAILS`, both runtimes probed): the
    rank assertions, `tf.debugging.assert_rank(x, 4)`, `assert_rank_at_least`, `assert_rank_in`
    and `tf.compat.v1`'s, which TF 2.3 checked against the static shape, while TF 2.4's op layer
    gets their Operation, for which Keras builds no TypeSpec (TypeError); the message says to
    check `x.shape.rank` in Python, or to make the call in a custom layer's `call` (both run on
    TF 2.4.0). The dynamic assertions (`assert_equal`, `assert_positive`) and `tf.print` fail on
    TF 2.3.0 too, with a Keras input. And the functions that dispatch but whose op layer fails
    where a Keras symbolic value is inside a structure, where TF 2.3.0 ran the same call
    (`symbolic_dispatch.STRUCTURE_FAILS`: the probe gives each parameter documented as a list, a
    tuple, a dict or a structure a list of `KerasTensor`s and lists of (tensor, shape) pairs):
    `tf.debugging.assert_shapes([(x, ("N", 3))])`, whose op layer turns the Python numbers of its
    first argument into tensors, which the check cannot compare (TypeError; shapes of symbols,
    `("N", "D")`, or a `tf.TensorShape` run), and `tf.compat.v1.debugging.assert_shapes`, whose
    Operation Keras cannot wrap, whatever the shapes. Reported where the list or tuple written in
    the call (or bound to a name) holds a Keras symbolic value.

    Reported where such a function is applied to a name bound from `tf.keras.Input(...)` (or
    `keras.layers.Input(...)`) in the same scope, or computed from one (`h = Dense(8)(inputs)`);
    names with no such evidence are left alone, and so is a call in the body of a `try` of its
    function that catches the TypeError. Not rewritten: the call belongs in a layer's `call`,
    which is a design change.

    Reported: `inputs = tf.keras.Input((3,))` then `y = tf.cond(flag, lambda: inputs, lambda: -inputs)`
    Write instead:

        class Choose(tf.keras.layers.Layer):
            def call(self, x):
                return tf.cond(flag, lambda: x, lambda: -x)


        inputs = tf.keras.Input((3,))
        y = Choose()(inputs)

    Versions: unsupported from TF 2.4 (the Functional API change in TF 2.4's release notes).
    """

    code = "TF24214"
    name = "control-flow-on-symbolic"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # `_CONTROL_FLOW`, `_MAKERS` (the lines making such a function), a call of (or an import
    # renaming) one of `_NOT_DISPATCHED`, and `&`
    triggers = (
        word("cond", "while_loop", "map_fn", "custom_gradient", "recompute_grad"),
        NotDispatchedCall(),
        "&",
    )
    requires = (*IMPORTS_TENSORFLOW, EVIDENCE_WORDS)
    follows = EVIDENCE_TRIGGERS

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualified = ctx.qualified_name(original.func)
        if qualified in _CONTROL_FLOW:
            arguments = list(original.args)
        elif qualified in _NOT_DISPATCHED:
            arguments = _arguments_of(original, _NOT_DISPATCHED[qualified])
        elif qualified in _RETURNS_OPERATION:
            self._report_operation(ctx, original, _RETURNS_OPERATION[qualified])
            return updated
        elif qualified in _STRUCTURE_FAILS:
            self._report_structure(ctx, original, *_STRUCTURE_FAILS[qualified])
            return updated
        else:
            made = _made_function(ctx, original.func)
            if made is not None:
                self._report_made(ctx, original, *made)
            return updated
        error = "ValueError" if qualified in BY_KEYWORD else "TypeError"
        names = [found for arg in arguments for found in symbolic_names(ctx, arg.value)]
        if not names or caught(ctx, error):
            return updated
        name, evidence = names[0]
        assert qualified is not None
        if qualified in _CONTROL_FLOW:
            function = qualified.replace("tensorflow.", "tf.", 1)
            reason = "does not support control flow on symbolic tensors"
        elif qualified in BY_KEYWORD:
            function = abbreviated(original.func)
            reason = (
                f"hands `{function}` of symbolic tensors to an op layer, which wants its first argument, "
                "`_sentinel`, that a call by keyword leaves out"
            )
        else:
            function = abbreviated(original.func)
            reason = f"applies to symbolic tensors only the TF functions that dispatch on them, and `{function}` does not"
        ctx.report(
            original,
            f"`{function}` on the Keras symbolic value `{name.value}` raises {error} from TF 2.4: "
            f"move it into a custom layer's `call`.\n{sentence(evidence)}. TF 2.4 {reason}. Move the "
            f"`{function}` into the `call` method of a custom `tf.keras.layers.Layer` and apply that "
            f"layer to `{name.value}`.",
            evidence=evidence,
        )
        return updated

    def leave_BinaryOperation(
        self, ctx: RuleContext, original: cst.BinaryOperation, updated: cst.BinaryOperation
    ) -> cst.BaseExpression:
        if not isinstance(original.operator, cst.BitAnd):
            return updated
        if not (_boolean(ctx, original.left) or _boolean(ctx, original.right)):
            return updated
        names = [found for side in (original.left, original.right) for found in symbolic_names(ctx, side)]
        if not names or caught(ctx, "TypeError"):
            return updated
        name, evidence = names[0]
        left, right = (abbreviated(_unparenthesized(side), 30) for side in (original.left, original.right))
        ctx.report(
            original,
            f"`&` of the boolean Keras symbolic value `{name.value}` raises TypeError from TF 2.4: "
            f"write `tf.math.logical_and({left}, {right})`.\n{sentence(evidence)}. `&` of boolean "
            "tensors is `tf.math.logical_and` through `Tensor.__and__`, which does not dispatch on "
            "symbolic tensors; `tf.math.logical_and` itself does (and runs on every TF 2 release).",
            evidence=evidence,
        )
        return updated

    @staticmethod
    def _report_operation(ctx: RuleContext, call: cst.Call, parameters: tuple[tuple[str, int], ...]) -> None:
        """Report `call` of a function whose op layer returns an Operation (`_RETURNS_OPERATION`)
        when one of `parameters` takes a Keras symbolic value."""
        names = [found for arg in _arguments_of(call, parameters) for found in symbolic_names(ctx, arg.value)]
        if not names or caught(ctx, "TypeError"):
            return
        (name, evidence), function = names[0], abbreviated(call.func)
        ctx.report(
            call,
            f"`{function}` on the Keras symbolic value `{name.value}` raises TypeError from TF 2.4: check "
            f"`{name.value}.shape` in Python, or make the call in a custom layer's `call`.\n"
            f"{sentence(evidence)}. TF 2.3 checked the static shape of a Keras input and went on; TF 2.4 "
            f"hands `{function}` of symbolic tensors to an op layer, and the Operation it returns is no "
            'layer output ("Could not build a TypeSpec for <tf.Operation ...>"). Check the static shape '
            f"in Python (`{name.value}.shape.rank`), or make the call in the `call` method of a custom "
            "`tf.keras.layers.Layer` (under `tf.control_dependencies` there, returning its input).",
            evidence=evidence,
        )

    @staticmethod
    def _report_structure(
        ctx: RuleContext, call: cst.Call, parameters: tuple[tuple[str, int], ...], failed: dict[str, str]
    ) -> None:
        """Report `call` of a function whose op layer fails where one of `parameters` holds a
        Keras symbolic value in a structure so failing (`failed`: `{structure: what}`, see
        `_STRUCTURE_FAILS`)."""
        for arg in _arguments_of(call, parameters):
            structure, names = _structure(ctx, arg.value)
            what = failed.get(structure)
            if names and what is not None:
                break
        else:
            return
        error = "TypeError" if what == "Operation" else what
        if caught(ctx, error):
            return
        (name, evidence), function = names[0], abbreviated(call.func)
        if what == "Operation":
            reason = (
                f"hands `{function}` of symbolic tensors to an op layer, and the Operation it returns is "
                'no layer output ("Could not build a TypeSpec for <tf.Operation ...>")'
            )
        elif structure == "pairs":
            reason = (
                f"hands `{function}` of symbolic tensors to an op layer, which turns the Python numbers "
                f"of its first argument (the shapes) into tensors, and `{function}` raises {error} on them"
            )
        else:
            reason = f"hands `{function}` of symbolic tensors to an op layer, which raises {error} on them"
        ctx.report(
            call,
            f"`{function}` on the Keras symbolic value `{name.value}` raises {error} from TF 2.4: check "
            f"`{name.value}.shape` in Python, or make the call in a custom layer's `call`.\n"
            f"{sentence(evidence)}. TF 2.3 ran it on the graph tensor of a Keras input; TF 2.4 {reason}. "
            f"Check the static shape in Python (`{name.value}.shape.assert_is_compatible_with(...)`), "
            "or make the call in the `call` method of a custom `tf.keras.layers.Layer`.",
            evidence=evidence,
        )

    @staticmethod
    def _report_made(ctx: RuleContext, call: cst.Call, made: str, maker: str) -> None:
        """Report `call` of the function `made` by `maker` when it takes a Keras symbolic value."""
        names = [found for arg in call.args for found in symbolic_names(ctx, arg.value)]
        if not names or caught(ctx, "TypeError"):
            return
        name, evidence = names[0]
        if maker == "tf.custom_gradient":
            instruction = f"apply it through a layer, `tf.keras.layers.Lambda({made})({name.value})`"
            how = "a `Lambda` layer calls it on real tensors, gradient included"
        else:  # a `Lambda` would make new layers at each call, their weights untracked
            instruction = "call it inside the `call` of a custom layer"
            how = "in a layer's `call` it runs on real tensors (make the layers it uses in that layer's `__init__`)"
        ctx.report(
            call,
            f"`{made}`, a `{maker}` function, on the Keras symbolic value `{name.value}` raises TypeError "
            f"from TF 2.4: {instruction}.\n{sentence(evidence)}. TF 2.4 applies to symbolic tensors only "
            f"the TF functions that dispatch on them, and a `{maker}` function does not; {how}.",
            evidence=evidence,
        )


def _unparenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node` without its own parentheses: an argument needs none."""
    return node.with_changes(lpar=(), rpar=()) if getattr(node, "lpar", None) else node


RULES = (ControlFlowOnSymbolic(),)
