"""`tf24migrate/model/release_diff.py` and `symbolic_dispatch.py` are what the real wheels say:
regenerated from the TF 2.3.0 and 2.4.0 runtimes (and this environment's TF 2.15.1), the first is
the committed file byte for byte, and the second's rows probed again are the committed rows. When
this fails, run `python -m tf24migrate.dev releases` and read the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from releases import interpreter

from tf24migrate.dev import releases
from tf24migrate.model import symbolic_dispatch

pytestmark = pytest.mark.tensorflow
COMMITTED = Path(__file__).resolve().parents[2] / "tf24migrate" / "model" / "release_diff.py"


def test_the_release_table_is_current():
    pytest.importorskip("tensorflow", reason="needs TF 2.15.1: the `test-tensorflow` extra")
    old, new = (releases.probe(interpreter(release)) for release in (releases.OLD, releases.NEW))
    later = releases.probe_later()
    assert releases.table_source(old, new, later) == COMMITTED.read_text(encoding="utf-8")


def test_the_symbolic_dispatch_table_is_what_the_wheel_does():
    """Every 20th function of `symbolic_dispatch.py`, and functions that dispatch, probed again
    in the TF 2.4.0 runtime: the same rows, and none for those that dispatch. (The whole probe
    takes minutes: `python -m tf24migrate.dev releases`.)"""
    rows = {names: parameters for names, parameters in symbolic_dispatch.NOT_DISPATCHED[::20]}
    dispatching = ("tensorflow.nn.relu", "tensorflow.reshape", "tensorflow.einsum", "tensorflow.image.resize")
    only = [names[0] for names in rows] + list(dispatching)
    probed = releases.probe(interpreter(releases.NEW), releases.SYMBOLIC_PROBE, *only)
    assert probed["version"] == releases.NEW
    again = {tuple(names): tuple(map(tuple, parameters)) for names, parameters in probed["functions"]}
    assert again == rows


def _probed(*names: str) -> tuple[dict, dict]:
    """The rows the symbolic probe finds of the functions `names` (`{name: ((parameter, position),
    ...)}`, none for a function that takes `KerasTensor`s), and its whole answer."""
    probed = releases.probe(interpreter(releases.NEW), releases.SYMBOLIC_PROBE, *names)
    rows = {
        name: tuple(map(tuple, parameters))
        for found, parameters in probed["functions"]
        for name in found
        if name in names
    }
    return rows, probed


def test_the_symbolic_probe_fills_the_other_parameters():
    """A `KerasTensor` in every parameter fails `assign(ref, value)` before it converts `value`:
    the probe then gives one parameter a `KerasTensor` and the others a variable or a shape."""
    expected = {
        "tensorflow.compat.v1.assign": (("value", 1),),
        "tensorflow.keras.backend.update": (("new_x", 1),),
        "tensorflow.compat.v1.placeholder_with_default": (("input", 0),),
    }
    assert _probed(*expected)[0] == expected


def test_the_symbolic_probe_follows_the_op_layers_a_call_makes():
    """`K.moving_average_update(x, value, momentum)` computes `(x - value) * momentum`, which
    dispatches (an op layer), and assigns the result, which does not: `value` is noted through the
    op layer's Keras history; `momentum`, converted first, did not keep it from being probed."""
    rows, _ = _probed("tensorflow.keras.backend.moving_average_update")
    assert rows == {"tensorflow.keras.backend.moving_average_update": (("value", 1), ("momentum", 2))}


def test_the_symbolic_probe_finds_the_op_layers_that_want_a_sentinel():
    """`tf.compat.v1.nn.sigmoid_cross_entropy_with_logits` dispatches, but takes a `_sentinel`
    first, which a call by keyword leaves out and Keras's op layer wants: a row, and a name of
    `by_keyword`. `softmax_cross_entropy_with_logits` takes one too, but hands its call on
    positionally: no row."""
    sigmoid = "tensorflow.compat.v1.nn.sigmoid_cross_entropy_with_logits"
    rows, probed = _probed(sigmoid, "tensorflow.compat.v1.nn.softmax_cross_entropy_with_logits")
    assert rows == {sigmoid: (("labels", 1), ("logits", 2))}
    assert sigmoid in probed["by_keyword"]


def test_the_op_layers_that_fail_are_what_both_wheels_do():
    """Every row of `OP_LAYER_FAILS` probed again in the TF 2.4.0 runtime, then in the TF 2.3.0
    one: the same rows (r153's `assert_rank_in` among them). None for a dynamic assertion or
    `tf.print`, whose op layer returns an Operation too but which raised on TF 2.3.0 as well (a
    graph tensor outside a graph), nor for a function whose op layer runs."""
    for release in (releases.OLD, releases.NEW):
        interpreter(release)  # skips the test where a runtime is missing
    rows = [
        [list(names), [list(kind) for kind in parameters], what]
        for names, parameters, what in symbolic_dispatch.OP_LAYER_FAILS
    ]
    assert "tensorflow.debugging.assert_rank_in" in {name for names, _, _ in rows for name in names}
    others = ("tensorflow.debugging.assert_positive", "tensorflow.print", "tensorflow.nn.relu")
    probed = releases.probe_symbolic(*(names[0] for names, _, _ in rows), *others)
    assert probed["op_layer_fails"] == rows


def test_the_symbolic_probe_gives_structures_where_the_documentation_says_so():
    """Every row of `STRUCTURE_FAILS` probed again on both runtimes: the same rows, among them
    `tf.debugging.assert_shapes`, whose op layer fails on (tensor, shape) pairs only where the
    shape holds Python numbers. A structure reaches a function that does not dispatch too:
    `gen_array_ops.concat_v2` refuses a single tensor for `values` ("A list of at least 2 `Tensor`
    objects") before converting it, and converts a list of them with no dispatch. None for
    `tf.print`, which fails on TF 2.3.0 too, nor for `tf.concat`, whose op layer takes a list."""
    for release in (releases.OLD, releases.NEW):
        interpreter(release)  # skips the test where a runtime is missing
    rows = [
        [list(names), [list(kind) for kind in parameters], [list(pair) for pair in failed]]
        for names, parameters, failed in symbolic_dispatch.STRUCTURE_FAILS
    ]
    assert ["tensorflow.debugging.assert_shapes", "tensorflow.python.ops.check_ops.assert_shapes_v2"] in (
        names for names, _, _ in rows
    )
    concat = "tensorflow.python.ops.gen_array_ops.concat_v2"
    others = ("tensorflow.print", "tensorflow.concat", concat)
    probed = releases.probe_symbolic(*(names[0] for names, _, _ in rows), *others)
    assert probed["structure_fails"] == rows
    functions = {name: parameters for names, parameters in probed["functions"] for name in names}
    assert ["values", 0] in functions[concat]
    assert "tensorflow.concat" not in functions
