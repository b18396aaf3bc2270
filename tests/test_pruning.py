"""Pruning (skipping statements without trigger strings) changes speed, never results; nor does
generating only the statements that changed or hold a finding (without a plan, the engine has no
`ast` to place statements with, and generates the whole module)."""

from __future__ import annotations

import ast
import re
import textwrap

import libcst as cst
import pytest

from tf24migrate import migrate_source
from tf24migrate.catalogue.prefilter import trigger_lines
from tf24migrate.catalogue.selection import select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.dev.fixtures import all_cases
from tf24migrate.engine import pruning
from tf24migrate.engine.ast_bindings import bindings
from tf24migrate.engine.positions import StatementMap
from tf24migrate.engine.pruning import StatementPlan
from tf24migrate.model.tricks import VARIABLE
from tf24migrate.rules.text import line_starts

CASES = all_cases()


def _without_the_plan(monkeypatch) -> None:
    """From here on, the engine parses and walks the whole source, as `TF24MIGRATE_OFF=pruning` asks."""
    monkeypatch.setenv(VARIABLE, "pruning")


def _found_alike_without_the_plan(source: str, select: str, monkeypatch) -> list[tuple[str, int]]:
    """(code, line) of each finding in `source`, after checking that the engine finds the same
    without the plan (`_without_the_plan`, for the rest of the test)."""
    findings = migrate_source(source, select=select).findings
    _without_the_plan(monkeypatch)
    assert migrate_source(source, select=select).findings == findings
    return [(f.code, f.line) for f in findings]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_result_with_and_without_the_plan_and_the_statement_map(case, monkeypatch):
    """Every fixture: what the rules find and fix is the same with the plan, without it (the
    engine's switch), and without the statement map too (the whole module generated), and with
    every statement the plan may leave out left out. A rule whose triggers miss a line it must
    see fails here, rather than losing findings."""
    source = case.input.read_text(encoding="utf-8")
    pruned = migrate_source(source, **case.options())
    # every statement without a trigger left out, however short: no line a rule reads is kept by luck
    monkeypatch.setattr(pruning, "_WORTH_SKIPPING", 0)
    assert migrate_source(source, **case.options()) == pruned
    _without_the_plan(monkeypatch)
    whole = migrate_source(source, **case.options())
    assert (whole.code, whole.findings) == (pruned.code, pruned.findings)
    monkeypatch.setattr(StatementMap, "at_lines", classmethod(lambda cls, *args, **kwargs: None))
    generated = migrate_source(source, **case.options())
    assert (generated.code, generated.findings) == (pruned.code, pruned.findings)


def test_the_switch_turns_the_plan_off(monkeypatch):
    """`TF24MIGRATE_OFF=pruning` is what the test above compares with: LibCST then parses the whole source."""
    source = "import tensorflow as tf\n" + "x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]\n" * 3
    source += "strategy.experimental_run_v2(step)\n"
    parsed: list[str] = []
    real_parse = cst.parse_module
    monkeypatch.setattr(cst, "parse_module", lambda text, *a: parsed.append(text) or real_parse(text, *a))
    pruned = migrate_source(source)
    _without_the_plan(monkeypatch)
    whole = migrate_source(source)
    assert (whole.code, whole.findings) == (pruned.code, pruned.findings)
    assert "experimental_run" not in whole.code and len(pruned.findings) == 1
    assert len(parsed[0]) < len(source) and parsed[1:] == [source]


def test_names_bound_in_skipped_statements_still_resolve():
    source = textwrap.dedent(
        """\
        try:
            import tensorflow as tf
        except ImportError:
            tf = None
        from tensorflow.distribute import experimental as dexp
        import mylib as helpers


        def unrelated():
            return helpers.value


        class Unrelated:
            pass


        hints = dexp.CollectiveHints()
        other = tf.distribute.experimental.CollectiveHints()
        """
    )
    result = migrate_source(source)
    assert "dexp.CommunicationOptions()" in result.code
    assert "tf.distribute.experimental.CommunicationOptions()" in result.code


def test_plan_marks_statements_on_trigger_lines():
    source = "import os\nx = 1\ndef f():\n    return s.experimental_run_v2(g)\n"
    plan = StatementPlan(ast.parse(source), trigger_lines(source, ["experimental_run_v2"]))
    assert [(type(e.node).__name__, e.interesting, e.descendants) for e in plan.entries] == [
        ("Import", False, 0),
        ("Assign", False, 0),
        ("FunctionDef", True, 1),
        ("Return", True, 0),
    ]


def test_bindings_from_ast_follow_python_scoping():
    tree = ast.parse(
        "import a.b\nfrom c import d as e\nx, (y, *z) = 1, (2, 3)\n"
        "def f(p):\n    inner = 1\n"
        "try:\n    pass\nexcept E as err:\n    g = 1\n"
        "[w for w in range(3)]\n"
        "K = tf.keras.backend\nu = v = tf.keras\nlayers, n = tf.keras.layers, 1\ncall = f().layers\n"
    )
    found = [binding for statement in tree.body for binding in bindings(statement)]
    assert found == [
        ("a", "a", False, None),
        ("e", "c.d", False, None),
        ("x", None, False, None),
        ("y", None, False, None),
        ("z", None, False, None),
        ("f", None, False, None),
        ("err", None, True, None),
        ("g", None, True, None),
        ("K", None, False, "tf.keras.backend"),  # the scope resolves it: a module alias or not
        ("u", None, False, None),
        ("v", None, False, None),
        ("layers", None, False, None),
        ("n", None, False, None),
        ("call", None, False, None),
    ]


COMPOUND_SOURCE = textwrap.dedent(
    """\
    with open(p) as f, lock:
        data = f.read()
    for i, (k, v) in enumerate(pairs):
        total = i
    else:
        done = True
    while waiting:
        import time as clock
    try:
        import numpy as np
    except ImportError as error:
        np = None
        K = tf.keras.backend
        try:
            fallback = 1
        except (KeyError, ValueError):
            nested = 2
    else:
        ready = True
    finally:
        closed = True
    if cond:
        def helper(): pass
    elif other:
        class Kind: pass
    async def run():
        async with session() as s:
            async for item in s:
                got = item
    match command:
        case [name, *rest]:
            matched = name
    """
)
# `except*` is Python 3.11's
EXCEPT_STAR = (
    "try:\n    pass\nexcept* OSError as group:\n    handled = group\n" if hasattr(ast, "TryStar") else ""
)


@pytest.mark.parametrize("walrus", [False, True])
def test_the_plan_binds_what_python_binds_in_compound_statements(walrus):
    """The plan's bindings of a compound statement are made from its header's and its statements'
    entries (with no `:=`, `_BINDS_BY_PARTS`); they are what `bindings` finds walking it."""
    source = COMPOUND_SOURCE + EXCEPT_STAR + ("(x := 1)\n" if walrus else "")
    plan = StatementPlan(ast.parse(source), set(), walrus=walrus)
    nodes = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.stmt)]
    expected = {(n.lineno, n.col_offset): tuple(bindings(n, walrus=walrus)) for n in nodes}
    found = {(e.start, e.col_offset): e.binds for e in plan.entries}
    assert found == expected
    assert found[(9, 0)] == (
        ("np", "numpy", False, None),
        ("error", None, True, None),
        ("np", None, True, None),
        ("K", None, True, "tf.keras.backend"),
        ("fallback", None, True, None),
        ("nested", None, True, None),
        ("ready", None, False, None),
        ("closed", None, False, None),
    )


def test_walrus_in_a_skipped_statement_still_shadows():
    source = "import tensorflow as tf\nif (tf := make_fake()):\n    pass\nh = tf.distribute.experimental.CollectiveHints()\n"
    assert migrate_source(source).code == source


def test_bindings_skip_expressions_only_without_walrus():
    tree = ast.parse("print((x := 1))\n")
    assert list(bindings(tree.body[0])) == [("x", None, False, None)]
    assert list(bindings(tree.body[0], walrus=False)) == []


SPARSE_SOURCE = textwrap.dedent(
    '''\
    """A module docstring long enough to be worth leaving out, were it not the docstring."""
    import os
    import tensorflow as tf  # the imports at the top stay


    @decorator(with_arguments="long enough to be left out of what LibCST parses")
    def unrelated(a, b):
        """Nothing here for any rule."""
        return os.path.join(a, b) + "padding to make it worth leaving out"  # comment


    class Trainer:
        def setup(self):
            self.long_attribute_name = compute_something_quite_long(1, 2, 3)

        def step(self, fn):
            return self.strategy.experimental_run_v2(fn)

        def teardown(self):
            self.long_attribute_name = None; self.other_attribute = "same line"


    if ready: value = "a one-line compound statement is left out whole, like any other"
    first_statement = "two on a line have no line of their own"; second_statement = 2
    result = Trainer().step(lambda: 1)
    hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=4)
    '''
)


def test_sparse_text_leaves_out_whole_uninteresting_statements_only():
    plan = StatementPlan.build(SPARSE_SOURCE, ["experimental_run_v2", "CollectiveHints"])
    sparse = plan.sparse(SPARSE_SOURCE)
    assert sparse is not None
    kept = sparse.text.splitlines()
    assert '"""A module docstring' in kept[0] and "import tensorflow as tf" in kept[2]
    skipped = [line for line in kept if "__tf24migrate_skipped_" in line]
    assert skipped == [
        f"{indent}__tf24migrate_skipped_{n}__" for n, indent in enumerate(["", "    ", "    ", ""])
    ]
    for gone in ("def unrelated", "@decorator", "def setup", "def teardown", "if ready"):
        assert gone not in sparse.text
    assert "first_statement = " in sparse.text and "; second_statement = 2" in sparse.text
    assert sparse.restore(sparse.text) == SPARSE_SOURCE
    original_lines = SPARSE_SOURCE.splitlines()
    for number, line in enumerate(kept, start=1):
        if "__tf24migrate_skipped_" not in line:
            assert original_lines[sparse.original_line(number) - 1] == line
            assert sparse.sparse_line(sparse.original_line(number)) == number


def test_generated_code_is_checked_with_its_markers_where_they_stand_for_their_statements():
    """A changed statement's code is parsed with its markers in it (much less to parse) when each
    stands at the indentation of the statements it stands for; else restored."""
    plan = StatementPlan.build(SPARSE_SOURCE, ["experimental_run_v2", "CollectiveHints"])
    sparse = plan.sparse(SPARSE_SOURCE)
    assert sparse is not None
    trainer = sparse.text[
        sparse.text.index("class Trainer") : sparse.text.index("\n\n\n__tf24migrate_skipped_3")
    ]
    assert trainer.count("    __tf24migrate_skipped_") == 2
    assert sparse.checkable(trainer) == trainer
    # A fix that put the statements of a marker in a new block: restored, they are not in it.
    moved = trainer.replace(
        "    __tf24migrate_skipped_1__", "    if ready:\n        __tf24migrate_skipped_1__"
    )
    ast.parse(moved)
    restored = sparse.checkable(moved)
    assert restored == sparse.restore(moved) and "def setup" in restored
    with pytest.raises(IndentationError):
        ast.parse(restored)


@pytest.mark.parametrize("layout", ["LF", "CRLF", "no final newline"])
def test_findings_and_code_are_the_same_with_and_without_the_sparse_text(layout, monkeypatch):
    source = {
        "LF": SPARSE_SOURCE,
        "CRLF": SPARSE_SOURCE.replace("\n", "\r\n"),
        "no final newline": SPARSE_SOURCE.rstrip("\n"),
    }[layout]
    sparse = migrate_source(source)
    assert "self.strategy.run(fn)" in sparse.code and "CommunicationOptions" in sparse.code
    assert [f.line for f in sparse.findings] == [17, 26]
    monkeypatch.setattr(StatementPlan, "sparse", lambda self, source: None)
    assert migrate_source(source) == sparse


def test_a_source_that_uses_the_marker_name_is_parsed_whole():
    source = SPARSE_SOURCE + "__tf24migrate_skipped_0__ = 1\n"
    plan = StatementPlan.build(source, ["experimental_run_v2"])
    assert plan.sparse(source) is None
    assert "strategy.run(fn)" in migrate_source(source).code


def test_a_statement_on_a_continued_line_is_not_left_out(monkeypatch):
    source = (
        "import tensorflow as tf\n"
        "if tf.distribute.experimental.CollectiveHints is None: \\\n"
        "    tf = make_a_fake_tensorflow_module_for_the_tests(with_a_long_argument=True)\n"
        "hints = tf.distribute.experimental.CollectiveHints()\n"
    )
    plan = StatementPlan.build(source, ["CollectiveHints"])
    assert plan.sparse(source) is None
    result = migrate_source(source)
    assert "hints = tf.distribute.experimental.CollectiveHints()" in result.code  # `tf` was rebound
    monkeypatch.setattr(StatementPlan, "sparse", lambda self, source: None)
    assert migrate_source(source) == result


FOLLOWING_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    ds = strategy.experimental_make_numpy_dataset(features)
    for batch in ds:
        print(batch)
    inputs = tf.keras.Input(shape=(3,))
    grads = tf.gradients(loss, inputs)
    """
)


def test_names_are_followed_only_from_the_lines_of_the_triggers_rules_follow(monkeypatch):
    def interesting(followed):
        plan = StatementPlan.build(FOLLOWING_SOURCE, ["experimental_make_numpy_dataset", "Input"], followed)
        return [entry.start for entry in plan.entries if entry.interesting]

    # every trigger line's names followed: `ds` too, and `batch`, which a loop over `ds` binds
    assert interesting(None) == [2, 3, 4, 5, 6]
    assert interesting(["Input"]) == [2, 5, 6]  # not `ds`: its line holds a method rename only
    result = migrate_source(FOLLOWING_SOURCE, select="TF24106,TF24213")
    assert "tf.data.Dataset.from_tensor_slices(features)" in result.code
    monkeypatch.setattr(StatementPlan, "sparse", lambda self, source: None)
    assert migrate_source(FOLLOWING_SOURCE, select="TF24106,TF24213") == result


LOOP_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    def looped(output):
        if isinstance(output, tf.Tensor):
            return output
        raise TypeError(output)


    for out in model.outputs:
        looped(out)
    for out, size in zip(model.outputs, sizes):
        print(out, size)
    for row in rows:
        first = row
        looped(first)
    """
)


def test_the_target_of_a_loop_whose_header_holds_a_followed_trigger_is_followed(monkeypatch):
    (rule,) = select_rules("TF24210")
    plan = StatementPlan.build(LOOP_SOURCE, rule.triggers, rule.follows)  # followed forward
    interesting = [entry.start for entry in plan.entries if entry.interesting]
    # `out` is followed into the loops' bodies (10-13); `row` and `first` are not (14-16): the
    # header of their loop holds no trigger, and what a body binds is not followed from a header
    assert interesting == [4, 5, 10, 11, 12, 13]
    assert _found_alike_without_the_plan(LOOP_SOURCE, "TF24210", monkeypatch) == [("TF24210", 5)]


PARAMETERS_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    class HalvedSGD(tf.keras.optimizers.SGD):
        def _aggregate_gradients(self, pairs):
            kept = list(pairs)
            return [gradient / 2.0 for gradient, _ in kept]

        def _resource_apply_dense(self, grad, var, apply_state=None):
            return var.assign_sub(grad * self.learning_rate)

        @tf.function
        def _aggregate_gradients(
            self,
            pairs,
        ):
            kept = list(pairs)
            return [gradient / 4.0 for gradient, _ in kept]


    pairs = [(tf.constant(1.0), tf.Variable(1.0))]
    print(len(pairs))
    """
)


def test_the_parameters_of_a_function_whose_header_holds_a_followed_trigger_are_followed(monkeypatch):
    """What `_aggregate_gradients` returns is computed from its parameter `pairs` (6-7), without a
    trigger on those lines: TF24219 must see them, also where the function is decorated and its
    parameters span lines (12-18). The parameters are the function's own: the module's `pairs`
    (21-22) is another name, and the other method's parameters are not followed."""
    (rule,) = select_rules("TF24219")
    plan = StatementPlan.build(PARAMETERS_SOURCE, rule.triggers, rule.follows)
    assert [entry.start for entry in plan.entries if entry.interesting] == [4, 5, 6, 7, 12, 17, 18]
    found = _found_alike_without_the_plan(PARAMETERS_SOURCE, "TF24219", monkeypatch)
    assert found == [("TF24219", 5), ("TF24219", 13)]


def test_a_site_in_a_function_is_seen_where_a_call_of_the_function_is(monkeypatch):
    """`isinstance` (5) is a trigger of TF24210, seen wherever it is; what `looped(out)` (11) gives
    its parameter is followed from `model.outputs` (10)."""
    assert _found_alike_without_the_plan(LOOP_SOURCE, "TF24210", monkeypatch) == [("TF24210", 5)]
    calls_nothing = LOOP_SOURCE.replace("looped(out)", "print(out)")
    assert _found_alike_without_the_plan(calls_nothing, "TF24210", monkeypatch) == []


SUFFIX_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    x = tf.keras.Input(shape=(3,), name="x")
    y = tf.keras.layers.Dense(2)(x)
    u_name = "u:0"
    print(u_name)
    if y.name == "dense/BiasAdd:0" or x.name == "x:0":
        pass
    """
)


def test_a_site_sees_the_names_followed_from_the_evidence(monkeypatch):
    (rule,) = select_rules("TF24211")
    plan = StatementPlan.build(SUFFIX_SOURCE, rule.triggers, rule.follows)
    # `Input` (2) binds `x`, whose uses (3, 6) are followed, and `y` bound there (3), whose use (6)
    # is followed too; the `:0` of `u_name = "u:0"` (4) is a trigger, `print(u_name)` (5) holds none
    assert [entry.start for entry in plan.entries if entry.interesting] == [2, 3, 4, 6]
    assert _found_alike_without_the_plan(SUFFIX_SOURCE, "TF24211", monkeypatch) == [("TF24211", 6)]


TRACE_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    def build():
        x = tf.keras.Input((3,))
        h = tf.keras.layers.Dense(2)(x)
        scale = tf.keras.layers.Lambda(lambda x: x * 2)(h)
        grads = tf.gradients(h, [x])
        return grads


    def other(x):
        x = x + 1
        return tf.keras.layers.Lambda(lambda t: t * 2)(x)


    def unrelated(v):
        return tf.gradients(v, v)
    """
)


def test_symbolic_values_are_followed_into_lambdas_and_gradients(monkeypatch):
    assert _found_alike_without_the_plan(TRACE_SOURCE, "TF24213,TF24218", monkeypatch) == [("TF24213", 8)]


LAMBDA_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf

    x = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(2)(x)
    scale = tf.keras.layers.Lambda(lambda t: t * 2)(h)
    shift = tf.keras.layers.Lambda(lambda t, s=h: t + s)(h)
    mixed = tf.keras.layers.Lambda(lambda t: t + h)(x)
    both = tf.keras.layers.Lambda(lambda t: t)(h) if isinstance(h, tf.Tensor) else h
    """
)


def test_a_lambda_is_judged_by_what_its_body_reads(monkeypatch):
    """`scale` (5) and `shift` (6) give `h` to the layer, as its input or as a default evaluated
    outside the function: their functions read only their parameters; `mixed`'s (7) reads `h`."""
    assert _found_alike_without_the_plan(LAMBDA_SOURCE, "TF24218", monkeypatch) == [("TF24218", 7)]


EMBEDDING_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    from official.nlp.modeling import layers

    tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
    word_embeddings = layers.OnDeviceEmbedding(100, 8)
    data = word_embeddings(ids)
    print(data.shape)
    embedding = tf.keras.layers.Embedding(100, 8)
    out = embedding(ids)
    assert out.dtype == tf.float32
    """
)


def test_what_an_embedding_binds_is_followed_from_the_layer_not_from_a_longer_name(monkeypatch):
    (rule,) = select_rules("TF24312")
    plan = StatementPlan.build(EMBEDDING_SOURCE, rule.triggers, rule.follows)
    # `Embedding` (8) binds `embedding`, whose output (9) is compared (10); `OnDeviceEmbedding` (5)
    # is another layer: what it binds (6) is not followed to its uses (7)
    assert [entry.start for entry in plan.entries if entry.interesting] == [4, 8, 9, 10]
    assert _found_alike_without_the_plan(EMBEDDING_SOURCE, "TF24312", monkeypatch) == [("TF24312", 10)]


LOSS_SCALE_SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf

    policy = tf.keras.mixed_precision.experimental.Policy("mixed_float16", loss_scale="dynamic")
    loss_scale_optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt, "dynamic")
    step = loss_scale_optimizer.iterations
    scale = tf.mixed_precision.experimental.DynamicLossScale()
    print(policy.loss_scale, scale)
    """
)


def test_loss_scale_names_are_followed_as_words_not_within_longer_ones(monkeypatch):
    classes, read = select_rules("TF24306,TF24309")
    # TF24306's classes (6), and the `LossScaleOptimizer` construction (4), whose binding it reads
    # (`isinstance(opt.loss_scale, ...)`), but not followed: its optimizer's use (5) is not visited;
    # TF24309's `.loss_scale` read (7) and the policy read (3), not the `loss_scale` of a name (4)
    # nor a keyword (3 holds it for `Policy`)
    for rule, interesting in ((classes, [4, 6, 7]), (read, [3, 7])):
        plan = StatementPlan.build(LOSS_SCALE_SOURCE, rule.triggers, rule.follows)
        assert [entry.start for entry in plan.entries if entry.interesting] == interesting, rule.code
    assert _found_alike_without_the_plan(LOSS_SCALE_SOURCE, "TF24306,TF24309", monkeypatch) == [
        ("TF24306", 6),
        ("TF24309", 7),
    ]


def test_trigger_lines_count_lines_as_python_does():
    assert trigger_lines("a = 1\rb = 2\r\nc = s.experimental_run_v2(f)\n", ["experimental_run_v2"]) == {3}
    assert trigger_lines("x = 'a\x0cb'\nrun_v2\n", ["run_v2"]) == {2}  # a form feed ends no line
    # a name used many times a line, on the last line without its line end, as a word only
    assert trigger_lines("x = x + x\rxs = 1\r\ny(x)", ["x"], words=True) == {1, 3}
    assert trigger_lines("x = x + x\rxs = 1\r\ny(x)", ["x", "y"], words=True) == {1, 3}


def test_the_engine_parses_a_source_with_python_once(monkeypatch):
    """The TF 1 check, the doctests and the plan share one `ast` parse of the source."""
    from tf24migrate.catalogue.selection import select_rules
    from tf24migrate.engine.pipeline import run_rules

    source = (
        "import tensorflow as tf\n\n\n"
        'def f(s):\n    """Runs.\n\n    >>> f(s)\n    """\n    return s.experimental_run_v2(g)\n\n\n'
        "session = tf.Session\n" + "".join(f"x{n} = [{n}, {n + 1}, {n + 2}]  # padding\n" for n in range(80))
    )
    parsed = []
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *a, **k: parsed.append(text) or real_parse(text, *a, **k))
    result = run_rules(source, Settings(select_rules()))
    assert [f.code for f in result.findings] == ["TF24101"]
    assert parsed.count(source) == 1


def test_the_sparse_text_leaves_the_line_starts_of_its_source_as_they_are():
    """The last text's line starts are kept for the next caller (`text.line_starts`): the sparse
    text of a source without a final line end adds its end to a copy."""
    source = SPARSE_SOURCE.rstrip("\n")
    starts = list(line_starts(source))
    plan = StatementPlan.build(source, ["experimental_run_v2", "CollectiveHints"])
    assert plan.sparse(source) is not None
    assert list(line_starts(source)) == starts
    assert line_starts(source) is line_starts(source)


@pytest.mark.parametrize(
    "names", [["x"], ["e", "op"], ["inputs", "outputs", "model"], ["model", "model_fn", "m"], ["_x", "x_"]]
)
def test_names_are_found_as_words_as_a_regular_expression_finds_them(names):
    """Where a followed name occurs as a whole word: the search asks `re` for where one ends a word
    and checks in Python where it starts, which must find the lines `\\b(?:...)\\b` finds."""
    sources = [case.input.read_text(encoding="utf-8") for case in CASES[:60]]
    sources += [
        "x = 1\nmax_x = x\nindex(x)\n_x = op\nopx = e; e_ = 1\n",
        "éx = 1\nx\u00e9 = 2\n\u00e9 x\nmodel_fn(m)\nm\u00e9 = model\nx_ = _x\n",
        "x",
        "",
    ]
    word = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b")
    for source in sources:
        expected = {source.count("\n", 0, match.start()) + 1 for match in word.finditer(source)}
        assert trigger_lines(source, names, words=True) == expected, (names, source[:60])
