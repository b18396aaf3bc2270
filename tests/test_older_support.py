"""A file that compares TensorFlow's version with a TF 2 release up to 2.4 keeps code for the
releases below it (`if tf.__version__ < "2.4": ... else: ...`), or for that release
(`.startswith("2.3")`). Where nothing names a target (the default), its target is the lowest
release it has code for, so a fix whose new spelling that
release lacks is reported, not applied, in the code outside the `if` too: applied, it would break
the file on the releases its own check supports. A named target (`--target-version`, project
metadata) wins; a check that only raises (`TF 2.4 is required`) claims no support."""

from __future__ import annotations

import textwrap

import pytest

from tf24migrate import migrate_source
from tf24migrate.engine.tf1_code import with_older_support
from tf24migrate.model.target import DEFAULT_TARGET, Target

SHIMMED = textwrap.dedent(
    """\
    import tensorflow as tf

    if tf.__version__ < "2.4":
        Strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy
    else:
        Strategy = tf.distribute.MultiWorkerMirroredStrategy

    tf.keras.mixed_precision.experimental.set_policy("mixed_float16")
    """
)


def test_a_file_checking_for_tf_2_4_keeps_running_on_tf_2_3():
    result = migrate_source(SHIMMED)
    assert result.code == SHIMMED
    (finding,) = result.findings
    assert finding.code == "TF24302" and not finding.applied
    assert finding.message.endswith("(not fixed: needs TensorFlow 2.4, the target is 2.3).")
    assert "(this file supports TF 2.3: it checks TensorFlow's version for it)" in finding.details


def test_a_named_target_wins():
    result = migrate_source(SHIMMED, target_version="2.4")
    assert 'tf.keras.mixed_precision.set_global_policy("mixed_float16")' in result.code


@pytest.mark.parametrize(
    "check",
    [
        'if tf.__version__ < "2.4":\n    raise ImportError("TensorFlow 2.4 is required")\n',
        'if tf.__version__ < "2.4": raise ImportError("TensorFlow 2.4 is required")\n',
        'if tf.__version__ < "2.0":\n    Strategy = None\n',  # TF 1 support: `with_tf1_support`
        'if np.__version__ < "2.4":\n    pass\n',  # not TensorFlow's version
        '"""Before `tf.__version__ < "2.4"`, this was another way."""\n',  # prose
        'assert tf.__version__ >= "2.4", "TensorFlow 2.4 is required"\n',
        'VERSION = tf.__version__\nprint(np.__version__ < "2.1")\n',  # `np`'s, on a line of its own
    ],
)
def test_other_checks_claim_no_tf_2_3_support(check):
    source = f"import tensorflow as tf\nimport numpy as np\n{check}"
    assert with_older_support(source, DEFAULT_TARGET) is DEFAULT_TARGET


@pytest.mark.parametrize(
    "check, version",
    [
        ('tf.__version__.startswith("2.3")', (2, 3)),  # code for 2.3 itself
        ('tf.__version__[:3] == "2.1"', (2, 1)),
        ('tf.version.VERSION >= "2.2.0"', (2, 1)),
        ('LooseVersion(tf.__version__) < LooseVersion("2.4.0")', (2, 3)),
        ('tf.__version__ < "2.10"', (2, 4)),  # a later release: the default stands
        ('tuple(map(int, tf.__version__.split(".")[:2])) < (2, 4)', (2, 3)),
        ("tuple(map(int, tf.version.VERSION.split('.')[:2])) == (2, 2)", (2, 2)),
        ("tf.__version__ < (2, 10)", (2, 4)),
        ('int(tf.__version__.split(".")[1]) < 4', (2, 3)),  # the minor number alone
        ("int(tf.__version__.split('.')[1]) >= 3", (2, 2)),
        ('int(tf.__version__.split(".")[1]) == 3', (2, 3)),
        ('int(tf.__version__.split(".")[1]) < 10', (2, 4)),  # no release from 2.1 to 2.4
        ('int(tf.__version__.split(".")[0]) < 2', (2, 4)),  # the major number
        ('not tf.__version__.startswith("2.4")', (2, 3)),  # every release but 2.4
        ('tf.__version__[:3] != "2.4"', (2, 3)),
        ('x and not tf.__version__.startswith("2.4")', (2, 3)),
        ('not x and tf.__version__.startswith("2.4")', (2, 4)),  # the negation is of another test
    ],
)
def test_the_target_is_the_release_before_the_one_compared(check, version):
    target = with_older_support(f"import tensorflow as tf\nif {check}:\n    pass\n", DEFAULT_TARGET)
    assert target.version == version


@pytest.mark.parametrize(
    "source",
    [
        'import tensorflow as tf2\nif tf2.__version__ < "2.4":\n    pass\n',
        'import tensorflow.compat.v2 as tfv2\nOLD = tfv2.version.VERSION.startswith("2.3")\n',
        'import tensorflow as tf\nTF_VERSION = tf.__version__\n\nif TF_VERSION < "2.4":\n    pass\n',
        "import tensorflow as tf\n_TF = LooseVersion(tf.__version__)\nOLD = _TF < LooseVersion('2.4')\n",
        'from tensorflow import __version__ as tf_version\nif tf_version < "2.4":\n    pass\n',
    ],
)
def test_the_version_is_found_however_the_file_names_it(source):
    """Run on TF 2.3.0, each of these files with a fix outside its check applied failed
    (`set_global_policy` is TF 2.4's): they were left at the default target."""
    assert with_older_support(source, DEFAULT_TARGET).version == (2, 3)


def test_only_the_default_target_is_lowered():
    named = Target((2, 4), "from requirements.txt: tensorflow>=2.4")
    assert with_older_support(SHIMMED, named) is named
