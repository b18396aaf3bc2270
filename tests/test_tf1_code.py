"""The TF 1 check walks only the statements whose lines hold a TF 1-only name where it can be an
attribute, or `import`, and finds what a walk of every statement finds."""

from __future__ import annotations

import ast
import pathlib

import pytest

from tf24migrate.engine.public_api import imports_public_tensorflow
from tf24migrate.engine.tf1_code import _Finder, tf1_evidence, with_tf1_support
from tf24migrate.model.target import DEFAULT_TARGET, TF1_TARGET

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


VERSION_FLAG = """\
import tensorflow as tf

IS_TF1 = tf.__version__.startswith("1.")


def session_or_strategy():
    if IS_TF1:  # the TF 1 branch: TF 1 names here are no sign of TF 1 code
        return tf.Session(config=tf.ConfigProto())
    return tf.distribute.MirroredStrategy()
"""


def test_tf1_names_behind_a_flag_bound_to_the_version_are_no_evidence():
    assert tf1_evidence(VERSION_FLAG) is None
    assert (
        tf1_evidence(VERSION_FLAG.replace("IS_TF1 = tf.__version__.startswith", "IS_TF1 = str.startswith"))
        is not None
    )


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


# Uses of TF 1-only names spelled over lines, among names that only look like uses (absl's
# `flags` and `logging`, a list called `layers`): the walk enters only the lines where a name can be
# an attribute, after a `.` or first on its line.
SPELLINGS = [
    "import tensorflow as tf\ns = tf.\\\n    Session()\np = (tf\n     .placeholder(tf.float32))\n",
    "import tensorflow as tf\ns = (tf.  # the session\n     Session)()\np = tf.placeholder(\n    tf.float32)\n",
    "from absl import flags, logging\nimport tensorflow as tf\nlayers = []\nflags.DEFINE_string('a', None, 'b')\n"
    "logging.info(layers)\ng = tf.get_default_graph()\nwith g.as_default():\n    x = [tf\n  .layers]\n",
    "from absl import flags, logging\nimport tensorflow as tf\nlayers = [tf.keras.layers.Dense(1)]\nlogging.info(layers)\n",
]


@pytest.mark.parametrize("source", SPELLINGS)
def test_uses_spelled_over_lines_are_found_and_look_alikes_are_not(source):
    assert tf1_evidence(source) == _everywhere(source)
    assert (tf1_evidence(source) is None) == ("keras" in source)


INTERNALS_ONLY = """\
from tensorflow.python.platform import tf_logging as logging
from tensorflow.python.framework import ops


def run(session):
    logging.info("graph %s", ops.get_default_graph())
    return session.run(ops.placeholder)
"""


def test_a_source_importing_only_tensorflow_internals_is_not_parsed_for_evidence(monkeypatch):
    # TensorFlow's own sources name `logging`, `flags`, `Session` everywhere, and bind no name
    # TF 1 code could be reached through: no parse is needed to tell they are not TF 1 code.
    def parse(source):
        raise AssertionError("parsed")

    monkeypatch.setattr("tf24migrate.engine.tf1_code.python_chunks", parse)
    assert tf1_evidence(INTERNALS_ONLY) is None


def test_every_kind_of_evidence_comes_with_an_import_of_the_public_api():
    for source in [
        "import tensorflow as tf\ntf.Session()\ntf.placeholder()\n",
        "import tensorflow.contrib.slim as slim\n",
        "from tensorflow.contrib import slim\n",
        "from tensorflow import Session, placeholder\n",
        "import tensorflow.python.ops\ntensorflow.Session()\ntensorflow.placeholder()\n",
    ]:
        assert tf1_evidence(source) is not None, source
        assert imports_public_tensorflow(source), source


CONTRIB_UNDER_IMPORT_ERROR = [
    "try:\n    from tensorflow.contrib import slim\nexcept ImportError:\n    slim = None\n",
    "s = '#'\ntry:\n    import tensorflow.contrib as c  # it's TF 1\nexcept ImportError:\n    c = None\n",
    "try:\n    from tensorflow import (\n        contrib,\n    )\nexcept ImportError:\n    contrib = None\n",
    'x = """\n"""\ntry:\n    from tensorflow \\\n  import contrib\nexcept (ImportError, AttributeError):\n    pass\n',
]


@pytest.mark.parametrize("source", CONTRIB_UNDER_IMPORT_ERROR)
def test_a_file_importing_contrib_under_import_error_supports_tf1(source):
    assert with_tf1_support(source, DEFAULT_TARGET).version == TF1_TARGET


def test_contrib_named_only_in_prose_is_not_parsed(monkeypatch):
    # TensorFlow's sources name `tensorflow.contrib` in comments and docstrings, and catch
    # ImportError: the check of TF 1 support must not parse them for that.
    def parse(source):
        raise AssertionError("parsed")

    monkeypatch.setattr("tf24migrate.engine.tf1_code.python_chunks", parse)
    source = '"""Was `from tensorflow.contrib import slim`."""\ntry:\n    import x  # contrib\nexcept ImportError:\n    pass\n'
    assert with_tf1_support(source, DEFAULT_TARGET) is DEFAULT_TARGET
