"""TensorFlow's own sources told apart by where they live (`catalogue.own_sources`): a file is
checked by TF24508 (and TF24212), also one that imports only TensorFlow's internals, unless it is in a
`tensorflow` package (or TensorFlow's `python` package unpacked alone), through the real command."""

from __future__ import annotations

import json

from command_line import run_in_process

from tf24migrate.catalogue.own_sources import is_tensorflow_source

INTERNALS_ONLY = "from tensorflow.python.keras.utils.conv_utils import convert_kernel\n"


def _package(root, *names):
    folder = root
    for name in names:
        folder = folder / name
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    return folder


def _codes(folder):
    done = run_in_process("--output-format", "json", folder)
    assert done.returncode in (0, 1), done.stderr
    return [(f["path"].rsplit("/", 1)[-1], f["code"]) for f in json.loads(done.stdout)["findings"]]


def test_a_users_file_importing_only_internals_is_checked(tmp_path):
    (tmp_path / "train.py").write_text(INTERNALS_ONLY)
    assert _codes(tmp_path) == [("train.py", "TF24508")]


def test_tensorflows_own_files_stay_quiet(tmp_path):
    (_package(tmp_path, "tensorflow", "python", "keras") / "layers.py").write_text(INTERNALS_ONLY)
    (tmp_path / "unpacked").mkdir()  # TF 2.15's `tensorflow/python` alone, as in a copy of its sources
    unpacked = _package(tmp_path / "unpacked", "python")
    _package(unpacked, "framework")
    (unpacked / "framework" / "ops.py").write_text("")
    (unpacked / "framework" / "layers.py").write_text(INTERNALS_ONLY)
    assert _codes(tmp_path) == []


def test_what_makes_a_tensorflow_source(tmp_path):
    own = _package(tmp_path, "tensorflow_core", "python")
    assert is_tensorflow_source(str(own / "x.py"))
    user = _package(tmp_path, "project", "python")  # a `python` package without `framework/ops.py`
    assert not is_tensorflow_source(str(user / "x.py"))
    (tmp_path / "tensorflow").mkdir()  # a folder named tensorflow, not a package
    assert not is_tensorflow_source(str(tmp_path / "tensorflow" / "x.py"))
    assert not is_tensorflow_source(None)  # a text without a file: nothing shows it is TF's


def test_tensorflows_own_files_stay_quiet_also_importing_the_public_api(tmp_path):
    folder = _package(tmp_path, "tensorflow", "python")
    (folder / "mixed.py").write_text("import tensorflow as tf\n" + INTERNALS_ONLY)
    (tmp_path / "user.py").write_text("import tensorflow as tf\n" + INTERNALS_ONLY)
    assert _codes(tmp_path) == [("user.py", "TF24508")]


def test_a_rule_reporting_an_internal_name_tells_tensorflows_own_files_by_path(tmp_path):
    """`ReportUse` with an internal symbol (TF24212's `tensorflow.python.keras.backend.get_graph`):
    quiet in TensorFlow's own package, reported in a user's file that imports only internals."""
    get_graph = (
        "from tensorflow.python.keras import backend\nwith backend.get_graph().as_default():\n    pass\n"
    )
    (_package(tmp_path, "tensorflow", "python", "keras") / "engine.py").write_text(get_graph)
    (tmp_path / "train.py").write_text(get_graph)
    assert _codes(tmp_path) == [("train.py", "TF24212")]
