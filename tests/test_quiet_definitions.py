"""Leaving quiet function and class bodies unvisited changes nothing but the time taken."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from fixture_cases import FIXTURES

from tf24migrate import engine, quiet_definitions
from tf24migrate.quiet_definitions import Definition, plan
from tf24migrate.rules import select_rules

SOURCE = textwrap.dedent(
    """\
    from tensorflow.distribute.experimental import MultiWorkerMirroredStrategy as Workers
    import tensorflow as tf


    def helper(x):
        return x + 1


    @tf.function
    def train(strategy):
        def quiet_inner():
            return 2

        class Loud:
            def method(self):
                return Workers()

        return strategy.experimental_run_v2(quiet_inner)


    class Quiet:
        def a(self):
            pass

        def b(self):
            pass
    """
)


def outcome(source, rules):
    try:
        result = engine.run_rules(source, rules)
    except SyntaxError as error:
        return "SyntaxError", error.msg
    return result.code, result.findings


def test_the_plan_marks_bodies_without_triggers_or_watched_aliases_quiet():
    assert plan(SOURCE, ["experimental_run_v2", "MultiWorkerMirroredStrategy"]) == [
        Definition("helper", quiet=True, nested=0),
        Definition("train", quiet=False, nested=3),
        Definition("quiet_inner", quiet=True, nested=0),
        Definition("Loud", quiet=False, nested=1),  # `Workers` is watched: an alias of a trigger
        Definition("method", quiet=False, nested=0),
        Definition("Quiet", quiet=True, nested=2),
        Definition("a", quiet=True, nested=0),
        Definition("b", quiet=True, nested=0),
    ]
    assert plan("def f(:\n", ["x"]) is None


def test_skipping_keeps_findings_inside_loud_bodies(monkeypatch):
    rules = select_rules()
    with_plan = outcome(SOURCE, rules)
    monkeypatch.setattr(quiet_definitions, "plan", lambda source, triggers: None)
    assert outcome(SOURCE, rules) == with_plan
    codes = [(f.code, f.line) for f in with_plan[1]]
    assert codes == [("TF24107", 16), ("TF24101", 18)]  # the first through the alias


def test_a_plan_that_disagrees_with_libcst_falls_back_to_walking_everything(monkeypatch):
    rules = select_rules()
    expected = outcome(SOURCE, rules)
    wrong = [Definition("not_helper", quiet=True, nested=0)]
    monkeypatch.setattr(quiet_definitions, "plan", lambda source, triggers: wrong)
    assert outcome(SOURCE, rules) == expected


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py")), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_migrates_the_same_with_and_without_skipping(path: Path, monkeypatch):
    source = path.read_text(encoding="utf-8")
    rules = select_rules("all")
    with_plan = outcome(source, rules)
    monkeypatch.setattr(quiet_definitions, "plan", lambda source, triggers: None)
    assert outcome(source, rules) == with_plan
