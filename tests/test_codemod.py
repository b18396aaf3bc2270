"""The rules as LibCST codemods: through `transform_module` and through `python -m libcst.tool`."""

from __future__ import annotations

import subprocess
import sys

from libcst.codemod import CodemodContext, TransformSuccess, transform_module

from tf24migrate import codemod

SOURCE = "s.experimental_run_v2(f)\nm.compile(experimental_steps_per_execution=2)\n"


def test_one_rule_per_command():
    result = transform_module(codemod.TF24101(CodemodContext()), SOURCE)
    assert isinstance(result, TransformSuccess)
    assert result.code == "s.run(f)\nm.compile(experimental_steps_per_execution=2)\n"


def test_selection_and_warnings_for_unfixed_findings():
    command = codemod.TF24Migrate(CodemodContext(), select=["TF24201", "TF24109"])
    source = SOURCE + "def all_reduce(self, op, value, experimental_hints=None):\n    pass\n"
    result = transform_module(command, source)
    assert isinstance(result, TransformSuccess)
    assert "steps_per_execution=2" in result.code and "experimental_run_v2" in result.code
    assert any("TF24109" in warning for warning in result.warning_messages)


def test_libcst_tool_runs_a_rule(tmp_path):
    target = tmp_path / "train.py"
    target.write_text(SOURCE)
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "libcst.tool",
            "codemod",
            "--no-format",
            "-x",
            "tf24migrate.codemod.TF24201",
            str(target),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert target.read_text() == "s.experimental_run_v2(f)\nm.compile(steps_per_execution=2)\n"
