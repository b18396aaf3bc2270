"""Pruning (skipping statements without trigger strings) changes speed, never results; nor does
generating only the statements that changed or hold a finding (without a plan, the engine has no
`ast` to place statements with, and generates the whole module)."""

from __future__ import annotations

import ast
import textwrap

import pytest
from fixture_cases import all_cases

from tf24migrate import engine, migrate_source
from tf24migrate.pruning import StatementPlan, bindings, trigger_lines

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_result_with_and_without_pruning_and_statement_map(case, monkeypatch):
    source = case.input.read_text(encoding="utf-8")
    pruned = migrate_source(source, **case.options())
    monkeypatch.setattr(engine.StatementPlan, "build", classmethod(lambda cls, source, triggers: None))
    full = migrate_source(source, **case.options())
    assert (pruned.code, pruned.findings) == (full.code, full.findings)


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
    )
    found = [binding for statement in tree.body for binding in bindings(statement)]
    assert found == [
        ("a", "a", False),
        ("e", "c.d", False),
        ("x", None, False),
        ("y", None, False),
        ("z", None, False),
        ("f", None, False),
        ("err", None, True),
        ("g", None, True),
    ]


def test_walrus_in_a_skipped_statement_still_shadows():
    source = "import tensorflow as tf\nif (tf := make_fake()):\n    pass\nh = tf.distribute.experimental.CollectiveHints()\n"
    assert migrate_source(source).code == source


def test_bindings_skip_expressions_only_without_walrus():
    tree = ast.parse("print((x := 1))\n")
    assert list(bindings(tree.body[0])) == [("x", None, False)]
    assert list(bindings(tree.body[0], walrus=False)) == []
