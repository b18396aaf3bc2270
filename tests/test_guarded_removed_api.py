"""TF24508 on guarded imports, through the real command: a note, without a fix, where the
removed reference is in the body of a `try` whose `except` falls back, saying what TF 2.4.0 has
instead; nothing behind a version check or in the fallback; an error, fixed, where the handler
only raises again."""

from __future__ import annotations

import json

from command_line import run_in_process

GUARDED = """import tensorflow as tf

try:
    from tensorflow.python.keras.utils.tf_utils import smart_cond
except ImportError:
    from tensorflow.python.keras.utils.control_flow_util import smart_cond

if tf.__version__ < "2.4":
    from tensorflow.python.keras.engine import training_arrays
try:
    from tensorflow.python.keras.utils.control_flow_util import constant_value
except ImportError:
    from tensorflow.python.keras.utils.tf_utils import constant_value
try:
    from tensorflow.python.keras.engine import training_eager
except ImportError:
    raise
"""


def test_a_guarded_import_is_a_note_and_nothing_else_in_shims_is_said(tmp_path):
    program = tmp_path / "train.py"
    program.write_text(GUARDED)
    # Named: the file's own `tf.__version__ < "2.4"` would make its default target 2.3, where
    # `training_eager_v1` is not (`tests/test_older_support.py`).
    done = run_in_process("--write", "--output-format", "json", "--target-version", "2.4", program)
    assert done.returncode in (0, 1), done.stderr
    found = {f["line"]: f for f in json.loads(done.stdout)["findings"]}
    assert sorted(found) == [4, 15]
    note = found[4]
    assert (note["code"], note["severity"], note["applied"], note["fix"]) == ("TF24508", "info", False, None)
    assert "the `except` falls back" in note["message"]
    assert "`tensorflow.python.keras.utils.control_flow_util.smart_cond`" in note["details"]
    assert (found[15]["severity"], found[15]["applied"]) == ("error", True)
    written = program.read_text()
    assert "from tensorflow.python.keras.utils.tf_utils import smart_cond" in written  # no fix in a guard
    assert "import training_eager_v1 as training_eager" in written


def test_code_behind_a_flag_naming_a_release_is_not_reported(tmp_path):
    """NeurST's `if compat.IS_PREV_TF_2_4_0:` guards TF 2.3's internals: it never runs on TF 2.4."""
    lines = _finding_lines(
        tmp_path / "trainer.py",
        "import tensorflow as tf\n"
        "from project import compat\n"
        "if compat.IS_PREV_TF_2_4_0:\n"
        "    from tensorflow.python.training.experimental.loss_scale import get_loss_scale_weights\n"
        "if compat.is_tf2:\n"
        "    from tensorflow.python.keras.utils.tf_utils import smart_cond\n",
    )
    assert lines == [6]  # `is_tf2` runs on TF 2.4


def test_code_behind_a_test_that_an_internal_module_imported_is_not_reported(tmp_path):
    """The Model Garden 2.4.0 tests `keras_tensor is not None` (TF 2.4's module, bound to None
    where the import fails) to tell the release, as a version check does; `tf is not None` tests
    TensorFlow itself, whose code runs on TF 2.4 too."""
    lines = _finding_lines(
        tmp_path / "keras_utils.py",
        "try:\n"
        "    from tensorflow.python.keras.engine import keras_tensor\n"
        "except ImportError:\n"
        "    keras_tensor = None\n"
        "try:\n"
        "    import tensorflow as tf\n"
        "except ImportError:\n"
        "    tf = None\n"
        "if keras_tensor is None:\n"
        "    from tensorflow.python.keras.engine import training_arrays\n"
        "if tf is not None:\n"
        "    from tensorflow.python.keras.utils.tf_utils import smart_cond\n",
    )
    assert lines == [12]


def _finding_lines(program, text: str) -> list[int]:
    """The lines of the findings of the command's check of `program`, written with `text`."""
    program.write_text(text)
    done = run_in_process("--output-format", "json", program)
    assert done.returncode in (0, 1), done.stderr
    return [f["line"] for f in json.loads(done.stdout)["findings"]]
