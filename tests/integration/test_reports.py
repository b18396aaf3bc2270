"""Real reports of code that broke from TF 2.3 to 2.4, each reduced to a program in `reports/`,
judged as a user would meet them: the program runs on TensorFlow 2.3.0 and fails on 2.4.0, then
`tf24migrate --write` runs over it with its defaults, and what the tool did is classified.

- fixed: the program was rewritten and runs on 2.4.0;
- reported: the line that fails on 2.4.0 (in the rewritten program, if any) holds a warning or an
  error left to the user (not one whose fix was applied). When that line is a `raise` statement in
  the body (or the `else`) of an `if`, the lines of that `if`'s condition count too: the program
  raised because of the condition (`if not isinstance(x, tf.Tensor): raise TypeError(...)`), and
  the condition is the code to change, where a finding belongs (`_failing_lines`);
- wrong: the rewritten program fails otherwise than the original, at a line the rewrite wrote, and
  nothing reports it;
- silent: nothing of the above.

`reports/README.md` lists every program with its classification; this test checks each row.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from releases import Batch

REPORTS = Path(__file__).parent / "reports"
BEFORE, AFTER = "2.3.0", "2.4.0"
CLASSES = ("fixed", "reported", "wrong", "silent")


def table() -> dict[str, str]:
    """Program file -> classification, from the README's table (`| ... | r01_x.py | ... | fixed |`)."""
    rows = {}
    for line in (REPORTS / "README.md").read_text().splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        files = [cell for cell in cells if re.fullmatch(r"r\d+_\w+\.py", cell)]
        if files and cells[-1] in CLASSES:
            rows[files[0]] = cells[-1]
    return rows


def test_every_program_is_in_the_table():
    assert sorted(table()) == sorted(path.name for path in REPORTS.glob("r*.py"))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    programs = sorted(REPORTS.glob("r*.py"))
    for program in programs:
        shutil.copy(program, folder / program.name)
    command = [sys.executable, "-m", "tf24migrate", "--write", "--output-format", "json", str(folder)]
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    findings: dict[str, set[int]] = {}
    for finding in json.loads(run.stdout)["findings"]:
        if finding["severity"] in ("warning", "error") and not finding["applied"]:
            findings.setdefault(Path(finding["path"]).name, set()).add(finding["line"])
    batch = Batch()
    for program in programs:
        batch.add(BEFORE, program)
        batch.add(AFTER, program)
        if (folder / program.name).read_text() != program.read_text():
            batch.add(AFTER, folder / program.name)
    return folder, findings, batch.run()


@pytest.mark.tensorflow
@pytest.mark.parametrize("name", sorted(table()))
def test_report(name, outcomes):
    folder, findings, ran = outcomes
    program, migrated = REPORTS / name, folder / name
    before, after = ran[(BEFORE, program)], ran[(AFTER, program)]
    assert before.ran, f"{name} must run on TF {BEFORE}: {before.describe()}"
    assert not after.ran, f"{name} runs on TF {AFTER}: not a break"

    changed = migrated.read_text() != program.read_text()
    result = ran[(AFTER, migrated)] if changed else after
    if changed and result.ran:
        verdict = "fixed"
    elif result.lines and _failing_lines(migrated, result.lines[-1], result.error) & findings.get(
        name, set()
    ):
        verdict = "reported"
    elif changed and result.error != after.error and _written(migrated, program, result.lines):
        verdict = "wrong"
    else:
        verdict = "silent"
    assert verdict == table()[name], f"{name}: {verdict}, the table says {table()[name]}\n{result.describe()}"


def _failing_lines(program: Path, line: int, error: str = "") -> set[int]:
    """The lines a finding may be on to report the failure at `line` of `program`: `line`, and when
    `line` starts a `raise` statement directly in the body (or `else`) of an `if` or `elif`, the
    lines of that `if`'s condition; when the error is TensorFlow calling a method the program
    defines with a keyword the definition lacks (`_compute_gradients() got an unexpected keyword
    argument 'tape'`, also at the end of the frames of `Model.fit`'s function), the line of that
    definition (`def _compute_gradients(`), which is what to change (as `# breaks in TF's call
    of:` says of a rule program); the lines of the simple statement that starts at `line` (Python
    3.8 names a call spread over lines by its first: `TPUEmbedding(` for its `batch_size=1024,`
    below); when `line` starts an `assert`,
    the line of the last assignment before it of each name its test reads (`rank = f(x)` then
    `assert rank == 3`): the value that changed was computed there."""
    lines = {line}
    called = re.search(r"\b(\w+)\(\) got an unexpected keyword argument '\w+'\Z", error)
    tree = ast.parse(program.read_text())
    lines.update(_assigned_before(tree, line))
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line and not hasattr(node, "body"):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        if isinstance(node, ast.If) and any(
            isinstance(statement, ast.Raise) and statement.lineno == line
            for statement in (*node.body, *node.orelse)
        ):
            lines.update(range(node.test.lineno, (node.test.end_lineno or node.test.lineno) + 1))
        if called and isinstance(node, ast.FunctionDef) and node.name == called.group(1):
            lines.add(node.lineno)
    return lines


def _assigned_before(tree: ast.Module, line: int) -> set[int]:
    """The lines of the last assignment before `line` of each name read by the test of the
    `assert` that starts at `line` (none when no `assert` starts there)."""
    nodes = list(ast.walk(tree))
    asserted = next((n for n in nodes if isinstance(n, ast.Assert) and n.lineno == line), None)
    if asserted is None:
        return set()
    read = {n.id for n in ast.walk(asserted.test) if isinstance(n, ast.Name)}
    last: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and node.lineno < line:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in read:
                    last[target.id] = max(last.get(target.id, 0), node.lineno)
    return set(last.values())


def test_failing_lines_of_a_statement_over_several_lines(tmp_path):
    program = tmp_path / "spread.py"
    program.write_text("x = f(\n    a=1,\n    b=2)\nif x:\n    pass\n")
    assert _failing_lines(program, 1) == {1, 2, 3}
    assert _failing_lines(program, 4) == {4}  # a compound statement: its header only


def test_failing_lines_of_an_assert(tmp_path):
    program = tmp_path / "asserted.py"
    program.write_text("rank = 1\nrank = f(x)\nother = 2\nassert rank == 3, other\nprint(rank)\n")
    assert _failing_lines(program, 4) == {2, 4}  # `other`, read by the message only, does not count
    assert _failing_lines(program, 5) == {5}  # not an `assert`


def test_failing_lines_of_a_guarded_raise(tmp_path):
    program = tmp_path / "guarded.py"
    program.write_text(
        "def check(x):\n"
        "    if not (isinstance(x, int)\n"
        "            or x is None):\n"
        "        raise TypeError(x)\n"
        "    elif x < 0:\n"
        "        print(x)\n"
        "        raise ValueError(x)\n"
        "    raise RuntimeError(x)\n"
    )
    assert _failing_lines(program, 4) == {2, 3, 4}
    assert _failing_lines(program, 7) == {5, 7}
    assert _failing_lines(program, 8) == {8}  # not in an `if`
    assert _failing_lines(program, 6) == {6}  # not a `raise`


def test_failing_lines_of_a_method_tensorflow_calls(tmp_path):
    program = tmp_path / "override.py"
    program.write_text(
        "class Clipped(Base):\n"
        "    def _compute_gradients(self, loss, var_list):\n"
        "        return []\n"
        "Clipped().minimize(loss, [v])\n"
    )
    error = "TypeError: _compute_gradients() got an unexpected keyword argument 'tape'"
    assert _failing_lines(program, 4, error) == {2, 4}
    assert _failing_lines(program, 4, "TypeError: minimize() got an unexpected keyword argument 'x'") == {4}
    assert _failing_lines(program, 4) == {4}


def _written(migrated: Path, program: Path, lines: tuple[int, ...]) -> bool:
    """Whether the line that failed in the migrated program is one the rewrite wrote."""
    return (
        bool(lines)
        and migrated.read_text().splitlines()[lines[-1] - 1] not in program.read_text().splitlines()
    )
