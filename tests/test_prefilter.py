"""The text prefilter: the generated table is the rules' needles, and needles are literals or patterns."""

from __future__ import annotations

import pathlib

import pytest

import tf24migrate
from tf24migrate.engine.pipeline import migrate_source
from tf24migrate.engine.pruning import trigger_lines
from tf24migrate.rules.needles import Pattern
from tf24migrate.rules.prefilter import (
    Probe,
    could_fire,
    pattern_of,
    rules_that_could_fire,
    table_source,
)
from tf24migrate.rules.selection import RuleSelection, all_rules, select_rules

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"


def test_the_table_is_generated_from_the_rules():
    table = pathlib.Path(tf24migrate.__file__).parent / "rules" / "trigger_table.py"
    assert table.read_text(encoding="utf-8") == table_source(), (
        "tf24migrate/rules/trigger_table.py is stale: run `python -m tf24migrate.rules.prefilter` and commit it"
    )


def test_the_table_holds_every_rule():
    from tf24migrate.rules.trigger_table import ROWS

    assert [(r.code, r.requires, r.triggers) for r in ROWS] == [
        (r.code, r.requires, r.triggers) for r in all_rules()
    ]


def test_a_selection_is_answered_from_the_table_without_loading_its_rules():
    every_rule = RuleSelection("all")
    assert could_fire("import tensorflow as tf\ns.experimental_run_v2(f)\n", every_rule)
    assert not could_fire("import tensorflow as tf\nx = tf.zeros([3])\n", every_rule)  # no trigger
    assert not could_fire("import numpy as np\nnp.zeros(3)\n", every_rule)
    assert every_rule._rules is None
    only_hints = RuleSelection("TF24103")
    assert not could_fire("import tensorflow as tf\ns.experimental_run_v2(f)\n", only_hints)
    assert could_fire("s.run(f, experimental_hints=h)\n", only_hints)
    assert only_hints._rules is None
    assert not could_fire("s.experimental_run_v2(f)\n", RuleSelection(ignore="TF241,TF24801"))


def test_loaded_rules_answer_with_their_own_needles():
    one_rule = select_rules("TF24101")
    assert could_fire("s.experimental_run_v2(f)\n", one_rule)
    assert not could_fire("import tensorflow as tf\n", one_rule)
    assert rules_that_could_fire("s.experimental_run_v2(f)\n", all_rules()) == [
        r for r in all_rules() if r.code in {"TF24101", "TF24801"}
    ]


def test_required_needles_may_be_looked_for_in_another_text():
    (rule,) = select_rules("TF24107")
    cell = "MultiWorkerMirroredStrategy()\n"
    assert rules_that_could_fire(cell, [rule]) == []
    assert rules_that_could_fire(cell, [rule], requires_in="import tensorflow as tf\n" + cell) == [rule]


def test_a_needle_is_a_literal_or_a_pattern():
    word = Pattern(r"\bInput\b", "Input")
    probe = Probe("x = tf.keras.InputLayer()\n")
    assert probe.has("Input") and not probe.has(word)
    assert Probe("x = tf.keras.Input((3,))\n").could_fire(["tensorflow"], [word]) is False
    assert Probe("import tensorflow\nx = tf.keras.Input((3,))\n").could_fire(["tensorflow"], [word])
    source = "a = InputSpec()\nb = Input(3)\nc = b.output\n"
    assert trigger_lines(source, [word, ".output"]) == {2, 3}
    assert trigger_lines(source, ["Input"]) == {1, 2}
    assert trigger_lines(source, ["b"], words=True) == {2, 3}
    assert not pattern_of([]).search(source)


def test_a_pattern_is_searched_on_the_lines_holding_its_literals():
    internal = Pattern(r"(?<![.\w])(?<!from )(?<!import )\w+\.(?:python|core|compiler)\b", ".python", ".core")
    source = "from tensorflow.python import x\ny = a.b.core\n\nz = tf.core.w\nq = tf.python.v\n"
    assert internal.search(source)
    assert sorted(m.group() for m in internal.finditer(source)) == ["tf.core", "tf.python"]
    assert not internal.search("from tensorflow.python import x\ny = a.b.core\n")
    assert internal.search("tf.core")  # no line end
    assert trigger_lines(source, [internal]) == {4, 5}
    assert trigger_lines("a = 1\rb = tf.core\r\nc = tf.python\n", [internal]) == {2, 3}  # Python's lines
    with pytest.raises(ValueError, match="names no literal"):
        Pattern(r"\bInput\b")


def _patterns():
    return {n for r in all_rules() for n in (*r.requires, *r.triggers) if isinstance(n, Pattern)}


@pytest.mark.parametrize("needle", sorted(_patterns(), key=repr), ids=repr)
def test_each_rule_pattern_finds_what_its_regular_expression_finds(needle):
    """Over every fixture file: the matches found on the lines holding a literal are all the
    regular expression's matches, and each holds one of the literals."""
    sources = [p.read_text(encoding="utf-8") for p in FIXTURES.rglob("*.py")]
    sources += ["\n".join(needle.literals), "x" + " ".join(needle.literals) + "y"]
    for source in sources:
        everywhere = [(m.start(), m.end()) for m in needle.regex.finditer(source)]
        assert sorted((m.start(), m.end()) for m in needle.finditer(source)) == everywhere
        assert all(any(lit in source[a:b] for lit in needle.literals) for a, b in everywhere)
        assert not any("\n" in source[a:b] for a, b in everywhere)


def test_triggers_are_as_narrow_as_the_rules():
    """Text that only looks like a rule's case (imports of internal modules, `InputSpec`, words
    holding `gradient`) lets no default rule through; the rule's case does."""
    looks_alike = (
        "from tensorflow.python.keras import backend\n"
        "from tensorflow.compiler.tf2xla.python import xla\n"
        "spec = tf.keras.layers.InputSpec(ndim=2)\n"
        "shape = layer.input_shape\n"
        "if isinstance(x, tf.Tensor):\n"
        "    y = gradient_checker.compute_gradient(f, [x])\n"
        "z = tf.dtypes.complex64\n"
        "policy = tf.keras.mixed_precision.Policy('mixed_float16')\n"
    )
    assert rules_that_could_fire(looks_alike, select_rules()) == []
    cases = {
        "TF24501": "x = tf.python.keras.backend\n",
        "TF24210": "inputs = tf.keras.Input((3,))\nisinstance(inputs, tf.Tensor)\n",
        "TF24213": "grads = tape.gradient(model.output, x)\n",
        "TF24214": "inputs = tf.keras.Input((3,))\ny = tf.cond(c, lambda: inputs, lambda: inputs)\n",
        "TF24215": "inputs = tf.keras.Input((3,))\nf.get_concrete_function(inputs)\n",
        "TF24502": "tf.reduce_max(tf.complex(a, b))\n",
        "TF24506": "tf.xla.experimental.compile(f)\n",
        "TF24301": "tf.keras.mixed_precision.experimental.Policy('mixed_float16')\n",
    }
    for code, case in cases.items():
        fired = rules_that_could_fire(looks_alike + "import tensorflow as tf\n" + case, select_rules())
        assert code in {rule.code for rule in fired}, code


def test_a_reduction_is_parsed_only_where_its_input_can_be_complex():
    """TF24502 reports `raw_ops.Max`/`Min`, or a reduction of what the file shows complex: a file
    holding neither `raw_ops` nor a complex name, dtype string or imaginary literal is turned away."""
    (rule,) = select_rules("TF24502")
    header = "import tensorflow as tf\nimport numpy as np\n"
    assert rules_that_could_fire(header + "peak = tf.reduce_max(x)\n", [rule]) == []
    for case in (
        "tf.raw_ops.Max(input=x, axis=0)",
        "tf.reduce_max(tf.complex(a, b))",
        "tf.reduce_min(tf.zeros(3, dtype=tf.complex64))",
        "tf.reduce_min(tf.zeros(3, dtype='complex128'))",
        "tf.reduce_max(np.zeros(3, dtype=np.csingle))",
        "tf.reduce_max(np.zeros(3, dtype=np.cdouble))",
        "tf.reduce_max(tf.constant([1.J]))",
        "tf.reduce_max(tf.constant([1e3j]))",
        "tf.reduce_max(tf.constant([1_0j]))",
    ):
        source = header + case + "\n"
        assert rules_that_could_fire(source, [rule]) == [rule], case
        assert [f.code for f in migrate_source(source, select="TF24502").findings] == ["TF24502"], case
