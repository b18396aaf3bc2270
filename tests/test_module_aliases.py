"""A name assigned a module of TensorFlow's public API (`K = tf.keras.backend`, `keras = tf.keras`)
stands for that module, as an import alias does: in the scopes the transformer keeps
(`engine.scopes`, flow-sensitive) and in the aliases the symbolic-value rules read from the `ast`
(`rules.names.ast_import_aliases`, for names bound once). The fixtures `assigned_module_alias*` of
TF24301 and TF24214 show it through two rules, with and without the statement plan."""

from __future__ import annotations

import ast

import pytest

from tf24migrate import migrate_source
from tf24migrate.rules.names import (
    ast_import_aliases,
    bound_once_in_scope,
    is_tensorflow,
    public_module,
    rebound_at_module_level,
)

POLICY = 'policy = {}.Policy("mixed_float16")\n'


def _policy_lines(source: str) -> list[int]:
    """The lines where TF24301 migrates a `Policy(...)` call (not an assignment of the module)."""
    findings = migrate_source(source, select="TF24301").findings
    return [
        f.line for f in findings if not f.message.startswith("`tf.keras.mixed_precision.experimental` is")
    ]


@pytest.mark.parametrize(
    "prelude, spelled",
    [
        ("import tensorflow as tf\nmp = tf.keras.mixed_precision.experimental\n", "mp"),
        ("import tensorflow as tf\nkeras = tf.keras\n", "keras.mixed_precision.experimental"),
        ("import tensorflow as tf\nk = tf.keras\nprec = k.mixed_precision\n", "prec.experimental"),
        ("from tensorflow import keras\nprec = keras.mixed_precision\n", "prec.experimental"),
        ("import tensorflow.compat.v2 as tf\nmp = tf.keras.mixed_precision.experimental\n", "mp"),
        ("import tensorflow as tf\ntf2 = tf.compat.v2\n", "tf2.keras.mixed_precision.experimental"),
    ],
)
def test_a_name_assigned_a_public_module_stands_for_it(prelude, spelled):
    source = prelude + POLICY.format(spelled)
    assert _policy_lines(source) == [source.count("\n")]


@pytest.mark.parametrize(
    "source",
    [
        # a parameter, a local and a rebinding shadow the module alias
        "import tensorflow as tf\nmp = tf.keras.mixed_precision.experimental\n"
        "def f(mp):\n    " + POLICY.format("mp"),
        "import tensorflow as tf\nmp = tf.keras.mixed_precision.experimental\n"
        "def f():\n    mp = make()\n    " + POLICY.format("mp"),
        "import tensorflow as tf\nimport other\nmp = tf.keras.mixed_precision.experimental\n"
        "mp = other.mixed_precision\n" + POLICY.format("mp"),
        # not TensorFlow's, or not a module: a class may be rebound, wrapped or patched
        "import other\nmp = other.keras.mixed_precision.experimental\n" + POLICY.format("mp"),
        "import tensorflow as tf\nexp = tf.keras.mixed_precision.experimental.Policy\nmake = exp.Policy\n",
        # two targets, or a tuple, are no alias
        "import tensorflow as tf\nmp = other = tf.keras.mixed_precision.experimental\n" + POLICY.format("mp"),
        "import tensorflow as tf\nmp, n = tf.keras.mixed_precision.experimental, 1\n" + POLICY.format("mp"),
    ],
)
def test_no_alias_where_python_would_not_give_the_module(source):
    # (the last line is the one that would be reported; a class alias's own line is reported)
    assert source.count("\n") not in _policy_lines(source)


def test_a_fallback_in_an_except_handler_keeps_the_module():
    source = (
        "import tensorflow as tf\ntry:\n    mp = tf.keras.mixed_precision.experimental\n"
        "except AttributeError:\n    mp = None\n" + POLICY.format("mp")
    )
    assert _policy_lines(source) == [6]


def test_a_fix_is_spelled_through_the_alias_where_the_new_name_is_in_its_module():
    source = "import tensorflow as tf\nkeras = tf.keras\nmp = keras.mixed_precision.experimental\n"
    source += POLICY.format("keras.mixed_precision.experimental") + POLICY.format("mp")
    lines = migrate_source(source, select="TF24301").code.splitlines()
    assert lines[-3:] == [
        "mp = keras.mixed_precision",  # moved to the stable module, as its import would be
        'policy = keras.mixed_precision.Policy("mixed_float16")',  # through `keras`
        'policy = mp.Policy("mixed_float16")',  # through `mp`, now the stable module
    ]


def _aliases(source: str) -> dict[str, str]:
    return ast_import_aliases(ast.parse(source))


def test_the_ast_aliases_hold_names_assigned_a_module_once_in_order():
    aliases = _aliases(
        "import tensorflow as tf\nK = tf.keras.backend\nlayers = keras.layers\nkeras = tf.keras\n"
        "def f():\n    early = late\nlate = keras.layers\n"
    )
    assert aliases["K"] == "tensorflow.keras.backend"
    assert aliases["keras"] == "tensorflow.keras"
    assert aliases["late"] == "tensorflow.keras.layers"
    assert "layers" not in aliases  # `keras` was not bound yet on that line


@pytest.mark.parametrize(
    "source",
    [
        "import tensorflow as tf\nK = tf.keras.backend\nK = other.backend\n",
        "import tensorflow as tf\nK = tf.keras.backend\ndef f(K):\n    pass\n",
        "import tensorflow as tf\nK = tf.keras.backend\nfor K in items:\n    pass\n",
        "import tensorflow as tf\nK = tf.keras.backend.update\n",
        "import tensorflow as tf\nK = tf.python.keras.backend\n",
        "import tensorflow as tf\nimport keras.backend as K\nK = tf.keras.backend\n",
    ],
)
def test_the_ast_aliases_leave_out_names_bound_again_or_not_a_public_module(source):
    assert not is_tensorflow(_aliases(source).get("K"))


def test_public_modules_come_from_the_releases():
    assert public_module("tensorflow.keras.backend") == "tensorflow.keras.backend"
    assert public_module("tensorflow.compat.v1.layers") == "tensorflow.compat.v1.layers"
    assert public_module("tensorflow.keras.backend.update") is None  # a function
    assert public_module("tensorflow.python.keras.backend") is None  # internal: no alias is assumed


@pytest.mark.parametrize(
    "source, once",
    [
        ("mp = a.b\n", True),
        ("mp = a.b\ndef f(mp):\n    return mp\n", True),  # another scope's parameter
        ("if c:\n    mp = a.b\nelse:\n    mp = None\n", False),
        ("mp = a.b\ndef f():\n    global mp\n    mp = None\n", False),
        ("def init(): global mp; mp = a.b\n", False),  # binds the module's name, read elsewhere
        ("mp = a.b\nfrom helpers import *\n", False),
        ("mp = a.b\n[mp for mp in range(3)]\n", True),  # the comprehension's own name
    ],
)
def test_a_module_alias_moves_only_where_its_scope_binds_it_once(source, once):
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "mp = a.b" in text)
    assert bound_once_in_scope(source, "mp", line) is once


@pytest.mark.parametrize(
    "source, rebound",
    [
        ("import tensorflow as tf\nimport keras as tf\n", False),  # imports only
        ("from a import tf\ndef f():\n    return tf.x\nwith open('x') as tf:\n    pass\n", True),
        ("from a import tf\ntry:\n    pass\nexcept E as tf:\n    pass\n", False),  # a handler's
        ("from a import tf\ndef g():\n    global tf\n    tf = 1\n", True),
        ("from a import tf\ntf = wrap(tf)\n", True),
        ("from a import tf\nfor tf in x:\n    pass\n", True),
        ("from a import tf\nclass C:\n    tf = 1\ndef f(tf):\n    tf = 2\n", False),  # their own
    ],
)
def test_a_module_level_name_is_rebound_by_what_is_not_an_import(source, rebound):
    assert rebound_at_module_level(source, "tf") is rebound
