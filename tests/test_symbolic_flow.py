"""`transforms/keras/_flow.py`: where Keras symbolic values go across a file, as the Keras rules see
it through `migrate_source` (the fixtures of TF24216 `flow*` show the kinds; these, the limits)."""

from __future__ import annotations

from tf24migrate import migrate_source


def _reported_lines(source: str) -> list[int]:
    return [f.line for f in migrate_source(source, select="TF24216").findings]


def test_a_chain_of_thousands_of_rebindings_is_followed_without_recursion():
    layers = ["x = tf.keras.layers.Dense(4)(x)"] * 3000
    module = ["import tensorflow as tf", "x = tf.keras.Input((4,))", *layers, "print(x.op.name)"]
    assert _reported_lines("\n".join(module) + "\n") == [len(module)]
    body = ["    " + line for line in ("x = tf.keras.Input((4,))", *layers, "return x")]
    function = ["import tensorflow as tf", "def build():", *body, "y = build()", "print(y.op.name)"]
    assert _reported_lines("\n".join(function) + "\n") == [len(function)]


def test_a_name_is_what_its_last_binding_before_the_read_made_it():
    source = (
        "import tensorflow as tf\n"
        "def check(x):\n"
        "    x = tf.constant(1.0)\n"  # a symbolic parameter rebound before it is read
        "    return x.op\n"
        "def kept(x):\n"
        "    y = x\n"
        "    return y.op\n"
        "inputs = tf.keras.Input((3,))\n"
        "check(inputs)\n"
        "kept(inputs)\n"
    )
    assert _reported_lines(source) == [7]


def test_a_comprehension_target_is_no_read_of_the_name_outside():
    source = (
        "import tensorflow as tf\n"
        "model = tf.keras.Model(*[tf.keras.Input((3,))] * 2)\n"
        "spec = tf.function(model).get_concrete_function([tf.TensorSpec(t.shape) for t in model.inputs])\n"
        "print(spec.graph)\n"
    )
    assert _reported_lines(source) == []
