"""Keras code that runs with eager execution off keeps TF 1's graph tensors on TF 2.4: `.op`,
`.graph` and `isinstance(x, tf.Tensor)` of a model's inputs and outputs still work there, so the
Functional-API rules stay silent (`_symbolic.eager_disabled`). Each program runs on the real
TF 2.3.0 and 2.4.0, in a fresh interpreter (turning eager execution off is for the whole process),
and the command finds nothing in it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from releases import Batch

PROGRAMS = {
    # the module turns eager execution off: its functions build graph tensors when called
    "module_level.py": """\
        import tensorflow as tf

        tf.compat.v1.disable_eager_execution()


        def output_names(model):
            return [out.op.name for out in model.outputs]


        inputs = tf.keras.Input((3,))
        model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
        assert output_names(model) == ["dense/BiasAdd"], output_names(model)
        assert model.output.graph is inputs.graph
        assert isinstance(inputs, tf.Tensor)
        """,
    # a function turns it off (`disable_v2_behavior` too), then builds a model
    "in_a_function.py": """\
        import tensorflow as tf


        def freeze():
            tf.compat.v1.disable_v2_behavior()
            inputs = tf.keras.Input((3,))
            model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
            return [out.op.name for out in model.outputs], model.output.graph


        if __name__ == "__main__":
            names, graph = freeze()
            assert names == ["dense/BiasAdd"] and graph is not None
        """,
}


@pytest.mark.tensorflow
def test_graph_mode_programs_run_on_both_releases_and_are_not_reported(tmp_path):
    batch = Batch()
    for name, source in PROGRAMS.items():
        (tmp_path / name).write_text(textwrap.dedent(source))
        for release in ("2.3.0", "2.4.0"):
            batch.add(release, tmp_path / name, fresh=True)
    for (release, path), outcome in batch.run().items():
        assert outcome.ran, f"{path.name} on TF {release}: {outcome.describe()}"
    done = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--check", "--output-format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["findings"] == []
