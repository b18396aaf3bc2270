"""Doctest examples in docstrings are migrated as code, at the file's lines, with the file's options."""

from __future__ import annotations

import tf24migrate.engine.pipeline as engine
from tf24migrate import migrate_source
from tf24migrate.catalogue.settings import Settings

NUMPY_DATASET = '''def f(s, x):
    """Example.

    >>> s.experimental_make_numpy_dataset(x)
    """
'''

PARAMETER_SERVER = '''import tensorflow as tf


def f():
    """Example.

    >>> s = tf.distribute.experimental.ParameterServerStrategy(resolver)
    """
'''


def test_a_fix_that_adds_lines_is_reported_not_applied():
    # TF24106 adds `import tensorflow as tf` to an example module that has none: no faithful splice.
    result = migrate_source(NUMPY_DATASET)
    assert result.code == NUMPY_DATASET
    assert [(f.code, f.line, f.column, f.applied) for f in result.findings] == [("TF24106", 4, 9, False)]


def test_unsafe_fixes_in_examples_follow_the_option():
    kept = migrate_source(PARAMETER_SERVER)
    assert kept.code == PARAMETER_SERVER
    assert [(f.code, f.line, f.applied) for f in kept.findings] == [("TF24108", 7, False)]
    assert "Unsafe fix" in kept.findings[0].details
    fixed = migrate_source(PARAMETER_SERVER, unsafe_fixes=True)
    assert ">>> s = tf.compat.v1.distribute.experimental.ParameterServerStrategy(resolver)\n" in fixed.code
    assert [(f.code, f.line, f.column, f.applied) for f in fixed.findings] == [("TF24108", 7, 13, True)]


def test_declined_findings_in_examples_are_not_applied():
    source = 'def f(s):\n    """Run.\n\n    >>> s.experimental_run_v2(g)\n    >>> s.experimental_run_v2(h)\n    """\n'
    first = migrate_source(source)
    assert [(f.line, f.applied) for f in first.findings] == [(4, True), (5, True)]
    result = engine.run_rules(source, Settings.selected().declining([first.findings[0]]))
    assert result.code == source.replace("experimental_run_v2(h)", "run(h)")
    assert [(f.line, f.applied) for f in result.findings] == [(4, False), (5, True)]


def test_files_without_prompts_never_reach_the_doctest_stage(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("the doctest stage ran")

    monkeypatch.setattr(engine, "migrate_doctests", fail)
    source = 'def f(s):\n    """Calls `s.experimental_run_v2`."""\n    return s.experimental_run_v2(g)\n'
    assert migrate_source(source).code == source.replace("return s.experimental_run_v2", "return s.run")


def test_examples_that_do_not_parse_are_left_alone():
    source = 'def f(s):\n    """Run.\n\n    >>> s.experimental_run_v2(g\n    """\n'
    result = migrate_source(source)
    assert result.code == source
    assert result.findings == ()
