"""The text prefilter: the generated table is the rules' needles, and needles are literals or patterns."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

import tf24migrate
from tf24migrate.catalogue.prefilter import (
    Probe,
    could_fire,
    pattern_of,
    rules_that_could_fire,
    table_source,
    trigger_lines,
)
from tf24migrate.catalogue.selection import RuleSelection, all_rules, select_rules
from tf24migrate.dev.fixtures import all_cases
from tf24migrate.engine.pipeline import migrate_source
from tf24migrate.model.tricks import VARIABLE
from tf24migrate.rules.needles import (
    IMPORTS_PUBLIC_TENSORFLOW,
    FirstParameterUses,
    KeywordOfModuleCall,
    MethodCallLines,
    ModuleAttribute,
    Pattern,
    PublicImports,
    RemovedReference,
    any_of,
    literals_of,
    names_bound_to,
    names_imported_with,
)

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"
CASES = {case.input: case for case in all_cases()}  # read once: each test of a case looks it up


def test_the_table_is_generated_from_the_rules():
    table = pathlib.Path(tf24migrate.__file__).parent / "catalogue" / "trigger_table.py"
    assert table.read_text(encoding="utf-8") == table_source(), (
        "tf24migrate/catalogue/trigger_table.py is stale: run `python -m tf24migrate.dev regen` and commit it"
    )


def test_the_table_holds_every_rule():
    from tf24migrate.catalogue.trigger_table import ROWS

    assert [(r.code, r.requires, r.triggers) for r in ROWS] == [
        (r.code, r.requires, r.triggers) for r in all_rules()
    ]


@pytest.mark.parametrize("current", [True, False])
def test_a_stale_table_is_not_used(monkeypatch, current):
    """A table generated from other sources than the rules' own (a rule edited, the table not
    regenerated) must not decide: the rules are loaded instead, so the command line (which uses the
    table) and the library (which loads the rules) never disagree."""
    from tf24migrate.catalogue import trigger_table

    digest = trigger_table.SOURCES_DIGEST if current else "0" * 32
    monkeypatch.setattr(trigger_table, "SOURCES_DIGEST", digest)
    monkeypatch.setattr(trigger_table, "ROWS", ())  # a table without the rule that fires below
    _forget_what_the_table_told()
    try:
        assert could_fire("strategy.experimental_run_v2(fn)\n", RuleSelection()) is not current
    finally:
        monkeypatch.undo()
        _forget_what_the_table_told()


def _forget_what_the_table_told() -> None:
    """Clear what the prefilter learnt from the trigger table (a test that replaced the table
    must not leave the order of the next tests' looks decided by it)."""
    from tf24migrate.catalogue import generated, prefilter

    generated.table_is_current.cache_clear()
    prefilter._sharing.cache_clear()
    prefilter._SPLITS.clear()
    prefilter._SCREENS.clear()
    prefilter._SHORTER = None


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


def test_the_screens_of_other_sequences_of_rules_are_bounded():
    """A caller asking with ever other sequences of rules (a long-lived server) keeps at most
    `_MAX_SCREENS` of them, and each answers as its rules do one by one."""
    from tf24migrate.catalogue import prefilter

    rules = all_rules()
    text = "import tensorflow as tf\nserver = tf.data.experimental.service.DispatchServer(5050)\n"
    sequences = [rules[:n] for n in range(1, len(rules) + 1)] + [rules[n:] for n in range(len(rules))]
    assert len(sequences) > prefilter._MAX_SCREENS
    answers = set()
    for sequence in sequences:  # only TF24401 could fire: some sequences hold it, some do not
        expected = any(r.code == "TF24401" for r in sequence)
        assert could_fire(text, sequence) == expected
        assert len(prefilter._SCREENS) <= prefilter._MAX_SCREENS
        answers.add(expected)
    assert answers == {True, False}


def test_required_needles_may_be_looked_for_in_another_text():
    (rule,) = select_rules("TF24107")
    cell = "MultiWorkerMirroredStrategy()\n"
    assert rules_that_could_fire(cell, [rule]) == []
    assert rules_that_could_fire(cell, [rule], requires_in="import tensorflow as tf\n" + cell) == [rule]


def test_a_pattern_several_rules_require_is_looked_for_before_their_own_literals():
    """Where the Functional-API rules' shared evidence is absent, none of their own needles that
    need it is looked for: each absent literal costs a scan of the whole text, once per rule.
    (TF24217 still looks for `tf_op_layer_`, which it reports with no evidence.)"""
    family = select_rules("TF24210,TF24211,TF24213,TF24214,TF24215,TF24216,TF24217,TF24218")
    probe = Probe("import tensorflow as tf\n\nif isinstance(x, tf.Tensor):\n    y = tf.cond(p, f, g)\n")
    assert [rule for rule in family if probe.could_fire(rule.requires, rule.triggers)] == []
    looked_for = {needle for needle in probe._found if isinstance(needle, str)}
    assert "Input" in looked_for  # the shared evidence, looked for once
    assert not looked_for & {"isinstance", "lambda", "Lambda", "gradient", ".name", "get_concrete_function"}


def test_a_requirement_known_absent_spares_the_look_for_the_triggers():
    """TF24202 requires an import of TensorFlow's public API or of `keras`, which TensorFlow's own
    sources have neither of: known from what the rules before it required, it is ruled out without
    a look for any of its four triggers (each absent one a scan of the whole text)."""
    (rule,) = select_rules("TF24202")
    probe = Probe("from tensorflow.python.ops import math_ops\n\nx = math_ops.add(1, 2)\n")
    assert not probe.has(IMPORTS_PUBLIC_TENSORFLOW)  # the first needle most rules require
    assert not probe.could_fire(rule.requires, rule.triggers)
    looked_for = {needle for needle in probe._found if isinstance(needle, str)}
    assert "keras" in looked_for and not looked_for & set(rule.triggers)
    assert probe.lacks(rule.requires[0])
    assert Probe("import keras\nkeras.utils.multi_gpu_model(m)\n").could_fire(rule.requires, rule.triggers)


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


def test_a_module_attribute_is_read_on_a_name_bound_to_the_module():
    """`tf.python` where an import binds `tf` to `tensorflow` (also over brackets and backslashes,
    or as `v2`), not `tfds.core` beside `import tensorflow_datasets as tfds`."""
    hidden = ModuleAttribute("tensorflow", "python", "core")
    tfds = "import tensorflow as tf\nimport tensorflow_datasets as tfds\nx = tfds.core.Builder\n"
    assert not hidden.search(tfds)
    assert hidden.search(tfds + "y = tf.core.x\n")
    assert names_bound_to(tfds, "tensorflow") == {"tensorflow", "tf"}
    bound = {
        "import tensorflow\n": {"tensorflow"},
        "import os, tensorflow as T\n": {"tensorflow", "T"},
        "import os, \\\n    tensorflow as T\n": {"tensorflow", "T"},
        "import tensorflow \\\r\n  as T\n": {"tensorflow", "T"},
        "from tensorflow.compat import (\n    v1,\n    v2 as T,\n)\n": {"tensorflow", "T"},
        "# tensorflow as T\nfrom x import y as z\n": {"tensorflow"},
        "import tensorflow_datasets as T\nmy_tensorflow = 1\n": {"tensorflow"},
    }
    for text, names in bound.items():
        assert names_bound_to(text, "tensorflow") == names, text
    assert sorted(m.group() for m in hidden.finditer("import tensorflow.compat.v2 as T\nT.python.x\n")) == [
        "T.python"
    ]
    assert hidden.search("from tensorflow import compat\ncompat.v2.core\n")
    assert not hidden.search("from tensorflow.python import x\nimport tensorflow.core as c\n")
    assert hidden != Pattern(hidden.regex.pattern, *hidden.literals)
    assert eval(repr(hidden)) == hidden


def test_a_keyword_of_a_module_call_is_kept_unless_the_callee_is_known_to_be_other():
    """`name=` of a call that can be a TF op; not of a Keras layer, a method, a definition."""
    op_name = KeywordOfModuleCall("name", "tensorflow", "keras")
    head = (
        "import tensorflow as tf\nfrom tensorflow.keras import layers\nfrom tensorflow import identity as I\n"
    )
    kept = {
        "tf.identity(x, name='y')",
        "tf . math . add(x, y,\n    name='z')",
        "I(x, name='y')",
        "tf.identity(f(a, b)[0], s='(', name='y')",
        "tf.identity(x,  # a comment (\n    name='y')",  # not read back over a comment
        'tf.identity("""(""", name="y")',
        "tf.\\\n    identity(x, name='y')",
    }
    other = {
        "layers.Dense(8, activation='relu', name='d')",
        "tf.keras.layers.Dense(8, name='d')(x)",
        "self.dense(x, name='y')",
        "def f(x, name=None):\n    pass",
        "g()(x, name='y')",  # not a dotted name: no import names it
        "super(A, self).__init__(name=name)",
        "data = tf.zeros(3)\nname = name",  # not an argument
        "f = lambda name=1: name",
        "layer = MyLayer(\n    units=3,\n    name='x')",
    }
    for code in kept:
        assert op_name.search(head + code), code
    for code in other:
        assert not op_name.search(head + code), code
    imported = names_imported_with(head, "tensorflow", ("keras",))  # a superset: `as` is in it
    assert {"tensorflow", "tf", "identity", "I"} <= imported and "layers" not in imported
    assert eval(repr(op_name)) == op_name
    assert eval(repr(any_of("x", op_name))) == any_of("x", op_name)


def _patterns():
    return {n for r in all_rules() for n in (*r.requires, *r.triggers) if isinstance(n, Pattern)}


@pytest.mark.parametrize("needle", sorted(_patterns(), key=repr), ids=repr)
def test_each_rule_pattern_finds_what_its_regular_expression_finds(needle):
    """Over every fixture file: the matches found on the lines holding a literal are all the
    regular expression's matches, and each holds one of the literals."""
    sources = [p.read_text(encoding="utf-8") for p in FIXTURES.rglob("*.py")]
    sources += ["\n".join(needle.literals), "x" + " ".join(needle.literals) + "y"]
    for source in sources:
        everywhere = [(m.start(), m.end()) for m in needle.regex_in(source).finditer(source)]
        found = sorted({(m.start(), m.end()) for m in needle.finditer(source)})
        if type(needle).finditer is Pattern.finditer or type(needle) is PublicImports:
            assert found == everywhere  # `PublicImports` passes over only what cannot match
        elif isinstance(needle, RemovedReference):  # paths on its lines, and uses of what they bind
            lines = {source.count("\n", 0, a) for a, _ in everywhere}
            for a, b in found:
                if source.count("\n", 0, a) not in lines:
                    receiver = source[a:b].split(".")[0].strip()
                    assert re.search(rf"\bimport\b[^\n]*\b{receiver}\b", source), source[a:b]
        elif isinstance(needle, MethodCallLines):  # the methods, and where their receivers are told
            lines = {source.count("\n", 0, a) for a, _ in everywhere}
            methods = "|".join(needle.methods)
            for a, b in found:
                if source.count("\n", 0, a) not in lines:
                    told = source[a:b].strip()
                    receiver = re.split(r"[\s:=]", told, maxsplit=1)[0]
                    called = rf"(?<![\w.]){re.escape(receiver)}\s*\.\s*(?:{methods})\b"
                    assert told.startswith("class ") or re.search(called, source), told
        elif isinstance(needle, FirstParameterUses):  # the headers, and their parameter named below
            parameters = {t.arg for t in ast.walk(ast.parse(source)) if isinstance(t, ast.arg)}
            for a, b in found:
                assert (a, b) in everywhere or source[a:b] in parameters, source[a:b]
        else:  # it narrows its regular expression's matches (`KeywordOfModuleCall`), or each
            # alternative of an `any_of` is matched alone: found on some of the same lines
            assert {source.count("\n", 0, a) for a, _ in found} <= {
                source.count("\n", 0, a) for a, _ in everywhere
            }
        assert all(any(lit in source[a:b] for lit in needle.literals) for a, b in everywhere)
        assert not any("\n" in source[a:b] for a, b in everywhere)


# Lines a pattern reads at their end: a `\` continuation, a keyword whose `=` is on the next line.
_LINE_ENDS = (
    "model.\\\n    outputs\nx = layers[0].\\\n    output\ny = f(communication\n    =ring)\nz = t.\\\n  op\n"
)


@pytest.mark.parametrize("needle", sorted(_patterns(), key=repr), ids=repr)
def test_each_rule_pattern_finds_the_same_lines_whatever_ends_them(needle):
    """Over every fixture file and `_LINE_ENDS`: the lines a pattern finds are the same when each
    line ends with CRLF (a file checked out on Windows) as when it ends with LF."""
    sources = [p.read_text(encoding="utf-8") for p in FIXTURES.rglob("*.py")] + [_LINE_ENDS]
    for source in sources:
        lines = {source.count("\n", 0, m.start()) for m in needle.finditer(source)}
        crlf = source.replace("\n", "\r\n")
        assert {crlf.count("\n", 0, m.start()) for m in needle.finditer(crlf)} == lines


PUBLIC_IMPORT_LINES = [
    "import tensorflow as tf",
    "import os, tensorflow.compat.v1 as tf",
    "from tensorflow import keras",
    "from  tensorflow . keras import layers",
    "from tensorflow.python.ops import array_ops",
    "from tensorflow . core import x",
    "import tensorflow.python.ops",
    "import os; from tensorflow.python import ops",
    "from tensorflow_probability import distributions",
    "import tensorflowjs, my.tensorflow, _tensorflow",
    "from \\\n    tensorflow import keras",
    "    tensorflow.keras)",
    "\rimport tensorflow\r",
    "tensorflow",
    "tensorflow.python",
    "# import tensorflow",
]


def test_the_public_import_needle_finds_what_its_regular_expression_finds():
    """It passes over the occurrences of `tensorflow` no match can hold (in a word, after a dot,
    before an internal package with no `import` before it on its line) without its regular
    expression, and so finds exactly what the expression finds, on each line alone and on all."""
    needle = PublicImports()
    for source in [*PUBLIC_IMPORT_LINES, "\n".join(PUBLIC_IMPORT_LINES), " ".join(PUBLIC_IMPORT_LINES)]:
        everywhere = [m.span() for m in needle.regex.finditer(source)]
        assert sorted(m.span() for m in needle.finditer(source)) == everywhere, source
    found = [line for line in PUBLIC_IMPORT_LINES if needle.search(line)]
    assert "from tensorflow_probability import distributions" not in found
    assert "from tensorflow.python.ops import array_ops" not in found
    assert "import os; from tensorflow.python import ops" in found  # a superset, as before
    assert eval(repr(needle)) == needle


def _occurs(needle, text: str) -> bool:
    return needle in text if isinstance(needle, str) else needle.search(text)


def test_the_probe_answers_as_each_needle_looked_for_alone():
    """The probe's shortcuts (each needle once per text, a literal absent where a shorter literal
    it holds is, the order of the checks, rules that require the same needles asked together)
    never change its answer: over every fixture, and texts
    holding each literal of the rules with and without an import of TensorFlow, a rule could fire
    exactly where each of its `requires` and one of its triggers occur."""
    literals = {
        literal
        for rule in all_rules()
        for needle in (*rule.requires, *rule.triggers)
        for literal in literals_of(needle)
    }
    texts = [p.read_text(encoding="utf-8") for p in FIXTURES.rglob("*.py")]
    texts += [
        f"{head}x = {literal}(1)\n"
        for literal in sorted(literals)
        for head in ("", "import tensorflow as tf\n")
    ]
    fired = 0
    for text in texts:
        for rule in all_rules():
            expected = all(_occurs(n, text) for n in rule.requires) and any(
                _occurs(n, text) for n in rule.triggers
            )
            assert Probe(text).could_fire(rule.requires, rule.triggers) == expected, (rule.code, text[:80])
            fired += expected
        probe = Probe(text)  # one probe for all rules, as a run asks it
        could = [
            r
            for r in all_rules()
            if all(_occurs(n, text) for n in r.requires) and any(_occurs(n, text) for n in r.triggers)
        ]
        assert [r for r in all_rules() if probe.could_fire(r.requires, r.triggers)] == could
        # a run asks once for all rules, which share their checks (`prefilter._Screen`)
        assert could_fire(text, all_rules()) == could_fire(text, RuleSelection("all")) == bool(could)
        assert could_fire(text, RuleSelection()) == any(r.default for r in could)
    assert fired > len(all_rules())  # the texts let every rule through somewhere


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
    # a module's name inside a longer one (the Model Garden's own helpers and flags)
    helpers = (
        "import tensorflow as tf\n"
        "tf.config.experimental.set_memory_growth(gpu, True)\n"
        "performance.set_mixed_precision_policy(dtype)\n"
        "use_float16 = config.mixed_precision_dtype == 'float16'\n"
    )
    assert "TF24301" not in {rule.code for rule in rules_that_could_fire(helpers, select_rules())}


def test_a_reduction_is_parsed_only_where_its_input_can_be_complex():
    """TF24502 reports `raw_ops.Max`/`Min`, or a reduction of what the file shows complex: a file
    holding neither `raw_ops` nor a complex name, dtype string or imaginary literal is turned away."""
    (rule,) = select_rules("TF24502")
    header = "import tensorflow as tf\nimport numpy as np\n"
    assert rules_that_could_fire(header + "peak = tf.reduce_max(x)\n", [rule]) == []
    # other raw ops, even of complex values (as in the docstrings of TF's gen_math_ops.py)
    other_raw_ops = "m = tf.raw_ops.ComplexAbs(x=tf.complex(a, b))\ns = tf.raw_ops.SegmentMaxV2(data=m)\n"
    assert rules_that_could_fire(header + other_raw_ops, [rule]) == []
    for case in (
        "tf.raw_ops.Max(input=x, axis=0)",
        "from tensorflow import raw_ops as r\nr.Min(input=x, axis=0)",
        "from tensorflow.raw_ops import Max\nMax(input=x, axis=0)",
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


def _unfiltered(monkeypatch):
    """Run the engine with every selected rule on every statement: no prefilter (only a rule's
    demand that the file mention TensorFlow at all), no import check, no plan."""
    from tf24migrate.engine import pipeline as engine

    def mentions(rule):  # what a rule asks of a file by design: that it mentions TensorFlow
        return any(
            all("tensorflow" in literals_of(a) for a in getattr(n, "alternatives", (n,)))
            for n in rule.requires
        )

    monkeypatch.setattr(
        engine,
        "rules_that_could_fire",
        lambda text, rules, **_: [r for r in rules if "tensorflow" in text or not mentions(r)],
    )
    monkeypatch.setattr(engine, "_imports_allow", lambda source, rules: rules)
    monkeypatch.setenv(VARIABLE, "pruning")


def _outcome(source: str, **options):
    result = migrate_source(source, **options)
    # Notes are not rule findings: a TF 1 file no rule can fire in gets none when prefiltered.
    return result.code, [f for f in result.findings if not f.code.startswith("TF240")]


# What the needles must let through though it looks unusual (and each case is reported or fixed).
NEEDLE_EDGES = {
    "continued import": "from \\\n    tensorflow.keras.mixed_precision import experimental as mp\nmp.set_policy('mixed_float16')\n",
    "import of an internal module binds tensorflow": (
        "import tensorflow.python.ops\ns = tensorflow.distribute.experimental.MultiWorkerMirroredStrategy()\n"
    ),
    "import among others": "import os, tensorflow as tf\ntf.keras.mixed_precision.experimental.set_policy('x')\n",
    "import in a function": "def f():\n    import tensorflow as tf\n    tf.keras.mixed_precision.experimental.set_policy('x')\n",
    "doctest import only": (
        'def f():\n    """Example.\n\n    >>> import tensorflow as tf\n'
        "    >>> tf.keras.mixed_precision.experimental.set_policy('mixed_float16')\n"
        '    """\n'
    ),
    "doctest right after the quotes": 'def f():\n    """>>> s.experimental_run_v2(g)"""\n',
    "doctest continuation line": (
        'def f():\n    """Run.\n\n    >>> y = (s.\n    ...      experimental_run_v2(g))\n    """\n'
    ),
    "an internal module, the alias imported in brackets": (
        "from tensorflow.compat import (\n    v2 as tf2,\n)\nx = tf2.python.keras.backend\n"
    ),
    "an internal module, the alias continued": "import os, \\\n    tensorflow as T\nx = T.core.framework\n",
    "an internal module through compat.v2": "import tensorflow as tf\nx = tf.compat.v2.python.keras\n",
    "an op's name over lines": (
        "import tensorflow as tf\ninputs = tf.keras.Input((3,))\ny = tf.identity(\n    inputs,\n    name='y')\n"
    ),
    "an op imported by name": (
        "from tensorflow import identity\nimport tensorflow as tf\ni = tf.keras.Input((3,))\ny = identity(i, name='y')\n"
    ),
    "a graph attribute continued": "import tensorflow as tf\nnames = [model.output.\\\n    op.name]\n",
    "method continued over lines": "s.\\\n    experimental_run_v2(f)\n",
    "method in brackets": "(s.\n    experimental_run_v2)(f)\n",
    "keyword before its =": "import tensorflow as tf\ns.reduce('sum', v, experimental_hints  # hints\n    = h)\n",
    "keras internals, a model's input": (
        "from tensorflow.python.keras import models\nif model.input.name == 'image:0':\n    pass\n"
    ),
    "keras internals, an attribute continued": (
        "from tensorflow.python.keras import models\nif model.\\\n        input.name == 'a:0':\n    pass\n"
    ),
    "keras internals, a layer's policy": (
        "from tensorflow.python.keras import backend\nprint(layer.dtype_policy.loss_scale)\n"
    ),
    "a policy's loss scale, the attribute continued": (
        "from tensorflow.keras import mixed_precision\n"
        "policy = mixed_precision.experimental.Policy('mixed_float16')\nscale = policy.\\\n    loss_scale\n"
    ),
    "a loss scale optimizer under another name, its scale called": (
        "from tensorflow.keras.mixed_precision.experimental import LossScaleOptimizer as LSO\n"
        "opt = LSO(sgd, 'dynamic')\ns = opt.loss_scale()\n"
    ),
    "xla's compile imported by name": (
        "from tensorflow.xla.experimental import jit_scope, compile\ny = compile(f, inputs=[x])\n"
    ),
    "a complex dtype imported from numpy under another name": (
        "import tensorflow as tf\nfrom numpy import abs, complex_ as c\ny = tf.reduce_max(tf.zeros(3, dtype=c))\n"
    ),
    "Tensor imported by name, checked in a tuple over lines": (
        "import tensorflow as tf\nfrom tensorflow import Tensor\ninputs = tf.keras.Input((3,))\n"
        "ok = isinstance(inputs, (tf.Variable,\n    Tensor))\n"
    ),
    "tf.complex continued": "import tensorflow as tf\ny = tf.reduce_max(tf.\\\n    complex(a, b))\n",
    "keras internals, a receiver over lines": (
        "from tensorflow.python.keras import models\n"
        "x = (base_model\n   ).inputs[0]\nif x.name == 'a:0':\n    pass\n"
    ),
}
# What only looks like a rule's case: TensorFlow's own sources, prose, definitions.
NEEDLE_LOOK_ALIKES = {
    # internal modules TF 2.4 still has (`mixed_precision.experimental`, which it has not, is
    # TF24508's in a file that imports only internals: fixtures/TF24508-removed-api/internals_only.py)
    "internal imports": (
        "from tensorflow.python.distribute import distribute_lib\n"
        "s = distribute_lib.MultiWorkerMirroredStrategy()\n"
        "from tensorflow.python.keras.mixed_precision import policy as mp\nmp.set_policy('x')\n"
    ),
    "an import in a docstring's code block": (
        '"""Use it as\n\n```python\nimport tensorflow as tf\n```\n"""\n'
        "from tensorflow.python.ops import math_ops\nx = math_ops.reduce_max(y)\ninputs = x.inputs\n"
        "def f(self, inputs):\n    if isinstance(inputs, tf.Tensor):\n        return inputs\n"
    ),
    "a definition of the old method": "class S:\n    def experimental_run_v2(self, f):\n        return self._experimental_run_v2(f)\n",
    "Keras's own policy attribute": (
        "from tensorflow.python.keras import backend\nscale = self._dtype_policy.loss_scale\n"
    ),
    "another package's core": "import tensorflow as tf\nimport tensorflow_datasets as tfds\nb = tfds.core.Builder\n",
    "layers' names in a functional model": (
        "import tensorflow as tf\nfrom tensorflow.keras import layers\ninputs = tf.keras.Input((3,))\n"
        "x = layers.Dense(8, name='d')(inputs)\nx = tf.keras.layers.Dense(2, name='out')(x)\n"
    ),
    "a functional layer's name, no model": "import tensorflow as tf\ny = tf.identity(x, name='scores')\n",
    "Input in prose only": 'import tensorflow as tf\n"""Input tensor."""\ny = tf.identity(x.op, name="y")\n',
    "a loss scale flag, no optimizer or policy": (
        "import tensorflow as tf\nscale = flags_core.get_loss_scale(flags_obj)\n"
        "opt = make(loss_scale=flags_obj.loss_scale)\n"
    ),
    "complex in prose, and a `.j` of an attribute or a link": (
        'import tensorflow as tf\n"""Reduces complex values."""\ny = tf.reduce_max(x.joint, axis=0)  # www.jstor.org\n'
    ),
    "a symbolic input checked against a TensorSpec, no Tensor": (
        "import tensorflow as tf\ninputs = tf.keras.Input((3,))\nif isinstance(inputs, tf.TensorSpec):\n"
        "    pass\nshape = tf.TensorShape([1])\n"
    ),
    "xla with an experimental_compile keyword": (
        "import tensorflow as tf\nfrom tensorflow.python.util import nest\n\n"
        "@tf.function(experimental_compile=True)\ndef f(x):\n    return x\n"
    ),
    "a graph op's outputs": "from tensorflow.python.framework import ops\nt = op.outputs[0]\nif t.name == 'a:0':\n    pass\n",
}


@pytest.mark.parametrize(
    "source",
    list(CASES) + list(NEEDLE_EDGES.values()) + list(NEEDLE_LOOK_ALIKES.values()),
    ids=lambda s: (
        s.name
        if isinstance(s, pathlib.Path)
        else next(k for k, v in {**NEEDLE_EDGES, **NEEDLE_LOOK_ALIKES}.items() if v == s)
    ),
)
def test_the_prefilter_changes_speed_never_results(source, monkeypatch):
    """Every fixture, and each case above: the same code and findings with every rule run on every
    statement as with the needles, the import check and the plan."""
    options = {}
    if isinstance(source, pathlib.Path):
        case = CASES[source]
        options, source = case.options(), source.read_text(encoding="utf-8")
    filtered = _outcome(source, **options)
    _unfiltered(monkeypatch)
    assert filtered == _outcome(source, **options)


@pytest.mark.parametrize("name", NEEDLE_EDGES)
def test_unusual_spellings_are_still_migrated(name):
    assert migrate_source(NEEDLE_EDGES[name]).findings


@pytest.mark.parametrize("name", NEEDLE_LOOK_ALIKES)
def test_look_alikes_are_not_even_parsed(name, monkeypatch):
    from tf24migrate.engine import pipeline as engine

    def refuse(*args, **kwargs):
        raise AssertionError("parsed by LibCST")

    monkeypatch.setattr(engine._Parsed, "of", classmethod(refuse))
    assert migrate_source(NEEDLE_LOOK_ALIKES[name]).findings == ()


TRICKY_IMPORTS = [
    'x = "import"; import tensorflow as tf\n',
    'import tensorflow as tf; s = "tensorflow"\n',
    "from \\\n  tensorflow.keras import layers\n",
    "x = '''\n'''\nimport os, tensorflow\n",
    "r'\\''\nimport tensorflow\n",
    'f"{x}" ; import tensorflow.compat.v1 as tf\r',
    "x = 1\rimport tensorflow as tf\r",
    's = "a\\\nb"\nimport tensorflow.python.ops\n',
    "if x:  # 'unclosed\n    from tensorflow import keras\n",
]


@pytest.mark.parametrize(
    "source",
    TRICKY_IMPORTS + [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("*.py"))],
)
def test_the_quick_import_check_never_misses_an_import(source, monkeypatch):
    """`imports_public_tensorflow` first looks for `tensorflow` outside strings and comments; where
    that says no, Python's `ast` finds no import of the public API either."""
    from tf24migrate.engine import public_api as context

    quick = context._may_import_public_tensorflow(source)
    monkeypatch.setattr(context, "_may_import_public_tensorflow", lambda source: True)
    assert quick or not context.imports_public_tensorflow(source)


def test_an_import_in_a_docstring_or_comment_is_not_an_import():
    from tf24migrate.engine.public_api import _may_import_public_tensorflow

    assert not _may_import_public_tensorflow(
        '"""Use:\n\n    import tensorflow as tf\n"""\n# import tensorflow\n'
    )
    assert all(map(_may_import_public_tensorflow, TRICKY_IMPORTS))


def test_first_parameter_uses_are_the_lines_of_the_method_naming_it():
    source = (
        "class Warmup(Schedule):\n"
        "    def __call__(self, step):\n"
        "        rate = self.rate\n"
        "        return rate * (\n"
        "    step / 10)\n"  # a continuation line, shallower than the body
        "\n"
        "    def other(self, step):\n"
        "        return step\n"
        "step = 3\n"
    )
    assert trigger_lines(source, [FirstParameterUses("__call__")]) == {2, 5}
