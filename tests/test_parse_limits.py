"""Sources LibCST must never see: what Python's parser rejects, and nesting deep enough to crash
LibCST's native parser (a segmentation fault killed the whole run) or its recursive passes. Each
fails its own file with a message; the other files are migrated."""

from __future__ import annotations

import subprocess
import sys

import pytest

OLD = "import tensorflow as tf\nstrategy.experimental_run_v2(step_fn)\n"
DEEP = {
    "a 10,000-term + chain": "import tensorflow as tf\nx = s.experimental_run_v2("
    + "+".join(["a"] * 10_000)
    + ")\n",
    "a 1,000-term + chain": "import tensorflow as tf\nx = s.experimental_run_v2("
    + "+".join(["a"] * 1_000)
    + ")\n",
    "2,000 nested parentheses": "import tensorflow as tf\nx = "
    + "(" * 2000
    + "s.experimental_run_v2(f)"
    + ")" * 2000
    + "\n",
}


def run(*args, cwd):
    command = [sys.executable, "-m", "tf24migrate", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("source", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_fails_its_file_and_the_run_goes_on(tmp_path, source):
    (tmp_path / "a_deep.py").write_text(source)
    (tmp_path / "b_train.py").write_text(OLD)
    result = run("--write", "-j", "1", ".", cwd=tmp_path)
    assert result.returncode == 2, result.stderr  # not -11 (a segfault), not 1 (a traceback)
    assert "./a_deep.py: error: cannot parse:" in result.stderr
    assert "nesting too deep" in result.stderr or "too many nested parentheses" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert (tmp_path / "a_deep.py").read_text() == source
    assert (tmp_path / "b_train.py").read_text() == OLD.replace("experimental_run_v2", "run")


def test_nesting_within_the_limit_is_migrated(tmp_path):
    source = "import tensorflow as tf\nx = s.experimental_run_v2(" + "+".join(["a"] * 300) + ")\n"
    (tmp_path / "train.py").write_text(source)
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "train.py").read_text() == source.replace("experimental_run_v2", "run")


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="PEP 695 syntax parses from Python 3.12")
def test_syntax_newer_than_the_running_python_says_so(tmp_path):
    (tmp_path / "train.py").write_text("import tensorflow as tf\ntype Step = int\n" + OLD)
    result = run("--check", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "(the syntax of a newer Python than 3." in result.stderr
    assert "internal error" not in result.stderr
