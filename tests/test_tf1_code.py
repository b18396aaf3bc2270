"""The TF 1 check walks only the statements whose lines hold a TF 1-only name or `import`, and
finds what a walk of every statement finds."""

from __future__ import annotations

import ast
import pathlib

from tf24migrate.engine.tf1_code import _Finder, tf1_evidence

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"

NESTED = """\
import os


class Trainer:
    def fit(self):
        import tensorflow as tf1
        return os.path.join("a", "b")

    @staticmethod
    def run(x):
        y = [
            x
            for x in range(3)
        ]
        if y:
            with tf1.Session() as s:
                pass
        return y


def helper():
    try:
        import tensorflow.compat.v1 as v1  # a shim: not entered
    except ImportError:
        v1 = None
    import tensorflow as tf

    return tf.Session(), tf.placeholder(tf.float32)
"""


def _everywhere(source: str):
    return _Finder(list(range(1, source.count("\n") + 2))).first(ast.parse(source))


def test_evidence_nested_in_classes_functions_and_blocks_is_found():
    evidence = tf1_evidence(NESTED)
    assert evidence is not None and (evidence.line, evidence.what) == (16, "tf1.Session")
    assert evidence == _everywhere(NESTED)


def test_a_walk_of_the_lines_that_matter_finds_what_a_walk_of_every_line_finds():
    sources = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("*.py"))]
    sources = [s for s in sources if "tensorflow" in s]
    assert any(tf1_evidence(s) is not None for s in sources)  # the fixtures hold TF 1 files
    for source in sources:
        try:
            expected = _everywhere(source)
        except SyntaxError:
            continue
        assert tf1_evidence(source) == expected
