"""The conventions a ruff or black user brings, through the real command (in process where the
test is not about the process): repeated and extended selections, `noqa` and rule names in
suppression comments, `--check --diff`, the preview's exit code, deleted paths in `--files-from`,
the target read from the project, grouped `--help`, one style of usage error, syntax errors as
findings, `--statistics` alone, the interactive review, stubs and the current folder, and a rule
catalogue that needs no LibCST."""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from test_cli import NEW, OLD
from test_smoke_corpus import corpus  # noqa: F401 - the fixture
from typer.testing import CliRunner

import tf24migrate
from tf24migrate.cli import command

KERAS = "model.compile(optimizer='sgd', experimental_steps_per_execution=4)\n"  # TF24201
AUTOTUNE = "import tensorflow as tf\nds = ds.prefetch(tf.data.experimental.AUTOTUNE)\n"  # TF24403, opt-in
BROKEN = "import tensorflow as tf\ns.experimental_run_v2(x\n"


@pytest.fixture
def tf24(tmp_path, monkeypatch):
    """Runs `tf24migrate ARGS` in `tmp_path`, in process; the result has `exit_code`, `stdout`, `stderr`."""
    monkeypatch.chdir(tmp_path)

    def invoke(*args, stdin=None):
        return CliRunner().invoke(command._app(), [str(arg) for arg in args], input=stdin)

    return invoke


def codes(output: str) -> list[str]:
    return [line.split(": ")[1].split()[0] for line in output.splitlines() if ": TF24" in line]


# 1. repeated --select / --ignore add up; --extend-select


def test_a_repeated_select_or_ignore_adds_up(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD + KERAS)
    both = tf24("--check", "--select", "TF24101", "--select", "TF24201", "a.py")
    assert codes(both.stdout) == ["TF24101", "TF24201"], both.stderr
    neither = tf24("--check", "--ignore", "TF24101", "--ignore", "steps-per-execution", "a.py")
    assert neither.exit_code == 0 and codes(neither.stdout) == [], neither.stdout


def test_extend_select_adds_to_the_default_rules_and_to_the_config(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD + AUTOTUNE)
    default = tf24("--check", "a.py")
    assert codes(default.stdout) == ["TF24101"]
    extended = tf24("--check", "--extend-select", "TF24403", "a.py")
    assert codes(extended.stdout) == ["TF24101", "TF24403"], extended.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.tf24migrate]\nextend-select = ["data-autotune"]\n')
    assert codes(tf24("--check", "a.py").stdout) == ["TF24101", "TF24403"]
    assert codes(tf24("--check", "--select", "TF24101", "a.py").stdout) == ["TF24101"]  # --select wins


# 2. suppression comments: noqa, names, unknown codes


def test_noqa_and_rule_names_suppress_and_unknown_codes_are_reported(tmp_path, tf24):
    lines = [
        "import tensorflow as tf",
        "s.experimental_run_v2(a)  # noqa: TF24101",
        "s.experimental_run_v2(b)  # tf24migrate: ignore[experimental-run-v2]",
        "s.experimental_run_v2(c)  # noqa: E501",
        "s.experimental_run_v2(d)  # noqa: F401, TF24999",
        "s.experimental_run_v2(e)  # tf24migrate: ignore[experimental-run-vee-2]",
        # in any case, as ruff reads its own comments in capitals
        "s.experimental_run_v2(f)  # TF24MIGRATE: ignore",
        "s.experimental_run_v2(g)  # NoQA: TF24101",
        "s.experimental_run_v2(h)  # Tf24Migrate: ignore[TF24998]",
    ]
    (tmp_path / "a.py").write_text("\n".join(lines) + "\n")
    result = tf24("--check", "--output-format", "json", "a.py")
    found = [(f["line"], f["column"], f["code"]) for f in json.loads(result.stdout)["findings"]]
    assert found == [
        (4, 1, "TF24101"),  # another tool's noqa does not suppress
        (5, 1, "TF24101"),
        (5, lines[4].index("TF24999") + 1, "TF24006"),  # no rule
        (6, 1, "TF24101"),
        (6, lines[5].index("experimental-run-vee-2") + 1, "TF24006"),
        (9, 1, "TF24101"),
        (9, lines[8].index("TF24998") + 1, "TF24006"),
    ]
    (tmp_path / "b.py").write_text("x = 1  # noqa: TF24999\n")  # no rule could fire here
    assert "b.py:1:16: TF24006 warning" in tf24("--check", "b.py").stdout
    text = tf24("--check", "a.py").stdout
    assert "a.py:5:41: TF24006 warning `TF24999` in a suppression comment is no rule nor note" in text


# 3 and 14. --check --diff, and the preview's exit code


def test_check_diff_prints_the_diff_and_exits_one_when_something_is_due(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD)
    (tmp_path / "clean.py").write_text("import tensorflow as tf\n")
    due = tf24("--check", "--diff", "a.py")
    assert due.exit_code == 1, due.stderr
    assert due.stdout.startswith("--- a/a.py\n+++ b/a.py\n") and "+strategy.run(step_fn)" in due.stdout
    assert "would change" not in due.stdout
    assert (tmp_path / "a.py").read_text() == OLD
    assert tf24("--check", "--diff", "clean.py").exit_code == 0
    assert tf24("--diff", "--write", "a.py").exit_code == 2  # still refused


def test_the_preview_exits_one_when_a_change_is_due_as_ruff_does(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD)
    assert tf24("a.py").exit_code == 1
    assert tf24("--diff", "a.py").exit_code == 1
    assert tf24("--exit-zero", "a.py").exit_code == 0
    assert tf24("--write", "a.py").exit_code == 0  # written: nothing left
    assert tf24("a.py").exit_code == 0


def test_the_readme_s_first_command_exits_one_and_the_readme_says_why():
    root = pathlib.Path(__file__).parent.parent
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "docs/examples/train_tf23.py"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stderr
    assert "error [fixable]" in result.stderr
    readme = (root / "README.md").read_text()
    assert "exits 1 when something is due" in readme


# 4. --files-from: a deleted path is a note


def test_files_from_a_deleted_path_is_a_note_a_named_missing_path_an_error(tmp_path, tf24):
    (tmp_path / "a.py").write_text(NEW)
    listed = tf24("--check", "--files-from", "-", stdin="a.py\ndeleted.py\n")
    assert listed.exit_code == 0, listed.stderr
    assert "tf24migrate: note: deleted.py: listed by --files-from, does not exist" in listed.stderr
    only_deleted = tf24("--check", "--files-from", "-", stdin="deleted.py\n")
    assert only_deleted.exit_code == 0, only_deleted.stderr
    named = tf24("--check", "a.py", "deleted.py")
    assert named.exit_code == 2
    assert "tf24migrate: deleted.py: no such file or folder" in named.stderr


# 5. the target


def test_a_test_or_docs_extra_does_not_set_the_target(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["tensorflow>=2.3,<2.5"]\n'
        '[project.optional-dependencies]\ntest = ["tensorflow-cpu==2.15.1"]\n'
        'docs = ["tensorflow==2.15.1", "tf24migrate"]\ngpu = ["tensorflow-gpu>=2.3"]\n'
        "[tool.ruff]\nline-length = 100\n"
    )
    result = tf24("--check", "a.py")
    assert (
        "; target TensorFlow 2.3 (from pyproject.toml: tensorflow>=2.3,<2.5) in " in result.stderr
    )  # no config
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\n[project.optional-dependencies]\ndev-tools = ["tensorflow==2.15.1"]\n'
    )
    result = tf24("--check", "a.py")
    assert "target TensorFlow 2.4 (default: no TensorFlow version required in .)" in result.stderr


def test_a_pyproject_that_only_mentions_the_tool_is_no_config(tmp_path, tf24):
    (tmp_path / "a.py").write_text(NEW)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n[tool.black]\ninclude = "tf24migrate"\n')
    assert "config" not in tf24("--check", "a.py").stderr
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\n")
    assert "; config pyproject.toml in " in tf24("--check", "a.py").stderr


@pytest.mark.parametrize("version", ["1.15", "0.12"])
def test_a_target_that_is_no_tensorflow_2_release_is_refused(tmp_path, tf24, version):
    (tmp_path / "a.py").write_text(OLD)
    result = tf24("--target-version", version, "a.py")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tf24migrate: error: --target-version: {version} is not a TensorFlow 2")
    (tmp_path / "pyproject.toml").write_text(f'[tool.tf24migrate]\ntarget-version = "{version}"\n')
    assert tf24("a.py").stderr.startswith("tf24migrate: error: pyproject.toml [tool.tf24migrate]: ")


# 6. --help, usage errors


def test_help_reads_at_80_columns_in_panels():
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    result = subprocess.run(
        [sys.executable, "-m", "tf24migrate", "--help"], capture_output=True, text=True, env=env
    )
    lines = result.stdout.splitlines()
    assert len(lines) <= 105, len(lines)  # 136 before the panels; 95 before issue 49's options
    assert max(map(len, lines)) <= 80
    for panel in ("Rule selection", "Fixes", "File selection", "Output", "Cache"):
        assert f"─ {panel} ─" in result.stdout, panel
    assert "--extend-select" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fix"], "no such option --fix: did you mean --write?"),
        (["--selct", "TF241"], "no such option --selct: did you mean --select?"),
        (["--output-format", "xml"], "invalid value for '--output-format': 'xml' is not one of"),
        (["--select"], "option '--select' requires an argument"),
    ],
)
def test_every_usage_error_is_one_line_in_one_style(tf24, args, message):
    result = tf24(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tf24migrate: error: {message}"), result.stderr
    assert result.stderr.count("\n") == 1 and "╭" not in result.stderr


# 7. a file that does not parse


def test_a_syntax_error_is_a_finding_in_every_format(tmp_path, tf24):
    (tmp_path / "bad.py").write_text(BROKEN)
    text = tf24("--check", "bad.py")
    assert text.exit_code == 2
    assert text.stdout == "bad.py:2:22: TF24005 error cannot parse: '(' was never closed\n"
    assert "bad.py: error:" not in text.stderr
    (finding,) = json.loads(tf24("--output-format", "json", "bad.py").stdout)["findings"]
    assert (finding["code"], finding["name"], finding["line"], finding["column"]) == (
        "TF24005",
        "syntax-error",
        2,
        22,
    )
    github = tf24("--output-format", "github", "bad.py").stdout
    assert github == (
        "::error file=bad.py,line=2,col=22,endLine=2,endColumn=22,title=TF24005::"
        "syntax-error: cannot parse: '(' was never closed\n"
    )
    (result,) = json.loads(tf24("--output-format", "sarif", "bad.py").stdout)["runs"][0]["results"]
    assert result["ruleId"] == "TF24005"
    explained = tf24("--explain", "syntax-error")
    assert explained.stdout.startswith("TF24005 syntax-error\n\nA note, not a rule")
    assert tf24("--explain", "TF24999").exit_code == 2


# 8. --statistics alone


def test_statistics_prints_only_the_table(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD + KERAS)
    for mode in ([], ["--check"], ["--write"]):
        result = tf24(*mode, "--statistics", "a.py")
        lines = result.stdout.splitlines()
        assert [line.split()[0] for line in lines] == ["TF24101", "TF24201"], (mode, result.stdout)
        assert "---" not in result.stdout and "would change" not in result.stdout
    assert (tmp_path / "a.py").read_text() == NEW + KERAS.replace(
        "experimental_steps_per_execution", "steps_per_execution"
    )


# 9. the interactive review


def test_the_review_shows_the_finding_and_lists_nothing_it_did_not_offer(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD + KERAS)
    (tmp_path / "b.py").write_text(OLD)
    result = tf24("-i", ".", stdin="q\n")
    question = result.stdout.index("Apply this change to ./a.py (TF24101, line 4)")
    assert "./a.py:4:1: TF24101 error [fixable] `experimental_run_v2`" in result.stdout[:question]
    assert result.stdout.count("Apply this change") == 1
    assert "TF24201" not in result.stdout and "b.py" not in result.stdout.replace("./a.py", "")
    assert "review quit: 1 more change not offered" in result.stderr
    assert (tmp_path / "a.py").read_text() == OLD + KERAS


def test_the_review_writes_through_the_write_path_of_write(tmp_path, tf24, monkeypatch):
    """A file edited while its question is asked is migrated again and asked about again, as
    `--write` migrates again a file changed since it was read."""
    from tf24migrate.cli.interactive import Review

    target = tmp_path / "a.py"
    target.write_text(OLD)
    asked = []

    def accepts(self, path, diff, what="", message=""):
        asked.append(path)
        if len(asked) == 1:  # the user edits the file meanwhile
            target.write_text("# edited\n" + OLD)
        return True

    monkeypatch.setattr(Review, "accepts", accepts)
    result = tf24("-i", "a.py")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert asked == ["a.py", "a.py"]
    assert target.read_text() == "# edited\n" + NEW


# 10. stubs and the current folder


def test_a_bare_command_walks_the_current_folder_stubs_included(tmp_path, tf24):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "types.pyi").write_text(OLD)
    (tmp_path / "pkg" / "m.py").write_text(OLD)
    result = tf24("--check")
    assert result.exit_code == 1, result.stderr
    assert "would change: ./pkg/m.py" in result.stdout and "would change: ./pkg/types.pyi" in result.stdout


# 11. the catalogue


def test_the_catalogue_table_is_the_rules_own_data():
    from tf24migrate.catalogue import entries

    table = pathlib.Path(tf24migrate.__file__).parent / "catalogue" / "entry_table.py"
    assert table.read_text(encoding="utf-8") == entries.table_source(), (
        "tf24migrate/catalogue/entry_table.py is stale: run `python -m tf24migrate.dev regen` and commit it"
    )


@pytest.mark.parametrize(
    "args", [["--list-rules"], ["--list-rules", "--output-format", "json"], ["--explain", "TF24101"]]
)
def test_list_rules_and_explain_import_neither_libcst_nor_the_rules(args):
    program = (
        "import sys\nfrom tf24migrate.cli.command import main\n"
        f"sys.argv = ['tf24migrate', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules if m == 'libcst' or m.startswith('tf24migrate.transforms')]\n"
        "print('loaded:', loaded, file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert "loaded: []" in result.stderr, result.stderr
    assert "TF24101" in result.stdout


def test_explain_and_list_rules_print_the_rules(tf24):
    from tf24migrate.catalogue.selection import all_rules

    listed = json.loads(tf24("--list-rules", "--output-format", "json").stdout)
    assert [(r["code"], r["name"], r["summary"]) for r in listed] == [
        (r.code, r.name, r.summary) for r in all_rules()
    ]
    explained = tf24("--explain", "collective-hints").stdout
    assert explained.startswith("TF24104 collective-hints\n")
    assert "TensorFlow versions: new spelling since 2.4; old spelling still works." in explained


# 12. the figures of docs/performance.md


def _quoted_figures() -> str:
    page = (pathlib.Path(__file__).parent.parent / "docs" / "performance.md").read_text()
    return page.split("<!-- figures.py: begin -->")[1].split("<!-- figures.py: end -->")[0]


def test_the_performance_page_quotes_the_rules_the_command_lists(tf24):
    listed = json.loads(tf24("--list-rules", "--output-format", "json").stdout)
    default = sum(rule["default"] for rule in listed)
    line = f"rules registered: **{len(listed)}**, {default} of them run by default"
    assert line in _quoted_figures(), "stale: `python -m tf24migrate.dev regen` writes the rule count"


@pytest.mark.corpus
@pytest.mark.slow
def test_the_performance_page_quotes_what_the_command_finds_in_the_model_garden(corpus):  # noqa: F811
    sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "benchmarks"))
    from figures import corpus_counts

    counts = corpus_counts(corpus)
    assert f"**{counts['findings']} findings**, {counts['fixable']} fixable" in _quoted_figures()
    assert f"{counts['files']} `.py` files, {counts['mention']} of them" in _quoted_figures()


# 13. short messages; the why and the versions in the details


def test_a_finding_s_line_is_short_and_its_details_come_once_per_code(tmp_path, tf24):
    policy = "tf.keras.mixed_precision.experimental.set_policy('mixed_float16')\n"
    (tmp_path / "a.py").write_text("import tensorflow as tf\n" + policy * 3)
    text = tf24("--check", "a.py").stdout.splitlines()
    findings = [line for line in text if ": TF24302 " in line]
    assert len(findings) == 3
    # The release whose break makes the fixed finding a warning is named, and nothing more.
    assert all(line.endswith(" from TF 2.4 (stops working in TensorFlow 2.9).") for line in findings)
    assert all(len(line) < 190 for line in findings)
    details = "    TensorFlow versions: new spelling since 2.4; old spelling stops working in 2.9."
    assert text.count(details) == 1 and text.index(details) == text.index(findings[0]) + 1
    (finding, *_) = json.loads(tf24("--output-format", "json", "a.py").stdout)["findings"]
    assert finding["details"] == details.strip()
    (result, *_) = json.loads(tf24("--output-format", "sarif", "a.py").stdout)["runs"][0]["results"]
    assert result["properties"]["details"] == details.strip()
    assert "old spelling" not in result["message"]["text"]  # the details are not repeated


def test_the_target_s_story_is_in_the_details(tmp_path, tf24):
    (tmp_path / "a.py").write_text(OLD)
    (line, more) = tf24("--check", "--target-version", "2.1", "a.py").stdout.splitlines()
    assert line.endswith("(not fixed: needs TensorFlow 2.2, the target is 2.1).")
    assert more.startswith(
        "    Not fixed: the new spelling needs TensorFlow 2.2, and the target is TensorFlow 2.1"
    )


def test_every_fixture_finding_s_first_line_is_at_most_300_characters():
    from tf24migrate.dev.fixtures import all_cases

    lines = []
    for case in all_cases():
        snapshot = case.findings.read_text(encoding="utf-8").splitlines()
        lines += [
            after for before, after in itertools.pairwise(snapshot) if re.match(r"\d+:\d+ TF24", before)
        ]
    assert len(lines) > 300
    assert max(map(len, lines)) <= 300, max(lines, key=len)
