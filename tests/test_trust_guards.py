"""A TensorFlow version guard counts only when it tests TensorFlow (issue 31): an `if` comparing
something else with a `Version` class guards nothing, and the code under it is migrated."""

from __future__ import annotations

import pytest

from tf24migrate import migrate_source

CALL = "    strategy.experimental_run_v2(fn)\n"


@pytest.mark.parametrize(
    "test",
    [
        "not isinstance(item, Version)",
        "LooseVersion(numpy.__version__) < LooseVersion('1.20')",
        "parse_version(other) > parse_version('2')",
        "item.VERSION == 3",
    ],
)
def test_a_test_of_something_else_is_no_guard(test):
    source = f"import tensorflow as tf\nif {test}:\n{CALL}"
    result = migrate_source(source)
    assert [f.code for f in result.findings] == ["TF24101"]
    assert "strategy.run(fn)" in result.code


@pytest.mark.parametrize(
    "test",
    [
        "LooseVersion(tf.__version__) < LooseVersion('2.4')",
        "tf.version.VERSION < '2.4'",
        "TF_VERSION < (2, 4)",
        "tensorflow.__version__.startswith('2.3')",
    ],
)
def test_a_test_of_tensorflows_version_is_a_guard(test):
    source = f"import tensorflow as tf\nimport tensorflow\nif {test}:\n{CALL}"
    assert "experimental_run_v2" in migrate_source(source).code
