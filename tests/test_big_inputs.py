"""Inputs that once took super-linear time: long runs of statements no rule can touch, 20,000-long
call, attribute and `+` chains."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc

import pytest

from tf24migrate import migrate_source
from tf24migrate.engine.pruning import StatementPlan

CALL = "strategy.experimental_run_v2(step_fn)\n"


def test_a_run_of_untouchable_statements_is_one_marker_for_libcst():
    filler = "".join(
        f"value_{n} = compute({n}, 'some text to make the line long enough')\n" for n in range(999)
    )
    source = "import tensorflow as tf\n" + (filler + CALL) * 20
    plan = StatementPlan.build(source, ["experimental_run_v2"])
    sparse = plan.sparse(source)
    assert sparse.text.count("\n") == 1 + 2 * 20  # the import, then a marker and a call per block
    result = migrate_source(source)
    assert result.code == source.replace("experimental_run_v2(", "run(")
    assert sum(f.applied for f in result.findings) == 20


def test_the_plan_of_many_tiny_statements_is_compact():
    """Tens of bytes a statement (an object per statement was about 200), and one small chunk of
    Python's `ast` alive at a time (a chunk of a 64th of the file peaked at 44 MB here)."""
    count = 30_000
    source = "import tensorflow as tf\n" + "".join(f"a{n % 100}=1\n" for n in range(count)) + CALL
    StatementPlan.build("x = 1\n", ["experimental_run_v2"])  # imports and caches warmed up
    tracemalloc.start()
    try:
        plan = StatementPlan.build(source, ["experimental_run_v2"])
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(plan.entries) == count + 2
    assert held < 64 * count, f"{held / count:.0f} bytes a statement"
    assert peak < 20_000_000, f"peak {peak / 1e6:.1f} MB while planning"


def test_names_bound_in_a_run_still_shadow_what_follows():
    source = (
        "import tensorflow as tf\n"
        "first = compute(1, 'some text to make the line long enough, and more')\n"
        "tf = compute(2, 'some text to make the line long enough, and more')\n"
        "tf.keras.experimental.CosineDecay(0.1, 100)\n"
    )
    assert migrate_source(source).code == source  # `tf` is no longer TensorFlow there


@pytest.mark.parametrize(
    "chain",
    [
        "tf.a()" + "".join(f".m{i}()" for i in range(20_000)),
        "tf" + "".join(f".a{i}" for i in range(20_000)),
        "tf.a()" + "".join(f" + b{i}" for i in range(20_000)),
    ],
    ids=["call chain", "attribute chain", "+ chain"],
)
def test_a_20000_long_chain_is_refused_at_once_with_a_message(tmp_path, chain):
    (tmp_path / "deep.py").write_text(f"import tensorflow as tf\nx = {chain}\n{CALL}")
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--diff", "deep.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "deep.py:1:1: TF24005 error cannot parse: nesting too deep" in result.stderr
    assert "Traceback" not in result.stderr
