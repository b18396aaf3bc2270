"""Each path named on the command line is run with its own nearest pyproject.toml (issue 11,
item 13): paths are grouped by the settings that apply to them, and one run prints one stream of
results, one summary and one exit code, naming every config it used."""

from __future__ import annotations

import json
import os
import shutil
import textwrap

import pytest
from command_line import run_in_process

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    strategy.experimental_run_v2(step_fn)
    strategy.reduce('SUM', x, axis=None, experimental_hints=h)
    """
)
ONLY_TF24101 = "[tool.tf24migrate]\nselect = ['TF24101']\n"
ONLY_TF24103 = "[tool.tf24migrate]\nselect = ['TF24103']\n"


def _project(root, name, pyproject=None, files=("m.py",), text=SOURCE):
    folder = root / name
    folder.mkdir()
    if pyproject is not None:
        (folder / "pyproject.toml").write_text(pyproject)
    for file in files:
        (folder / file).write_text(text)
    return folder


@pytest.fixture
def two(tmp_path):
    """`a` selects TF24101 only, `b` TF24103 only; each holds one file where both rules apply."""
    _project(tmp_path, "a", ONLY_TF24101)
    _project(tmp_path, "b", ONLY_TF24103)
    return tmp_path


def _codes(output: str, path: str) -> set[str]:
    return {line.split()[1] for line in output.splitlines() if line.startswith(f"{path}:")}


def _without_summary(stderr: str) -> str:
    return "".join(line for line in stderr.splitlines(keepends=True) if " scanned, " not in line)


def test_two_projects_are_each_migrated_by_their_own_rules(two):
    for order in (["a", "b"], ["b", "a"]):
        result = run_in_process("--check", *order, cwd=two)
        assert _codes(result.stdout, "a/m.py") == {"TF24101"}, result.stdout
        assert _codes(result.stdout, "b/m.py") == {"TF24103"}, result.stdout
        assert "note:" not in result.stderr


def test_a_file_and_a_folder_in_different_projects(two):
    result = run_in_process("--diff", "a/m.py", "b", cwd=two)
    assert _codes(result.stderr, "a/m.py") == {"TF24101"}, result.stderr
    assert _codes(result.stderr, "b/m.py") == {"TF24103"}, result.stderr
    assert (
        "+strategy.run(step_fn)" in result.stdout
        and "+strategy.reduce('SUM', x, axis=None, options=h)" in result.stdout
    )
    assert result.stdout.count("+++ ") == 2


def test_a_path_without_a_pyproject_uses_the_defaults(tmp_path):
    _project(tmp_path, "a", ONLY_TF24103)
    _project(tmp_path, "plain")
    for order in (["a", "plain"], ["plain", "a"]):
        result = run_in_process("--check", *order, cwd=tmp_path)
        assert _codes(result.stdout, "a/m.py") == {"TF24103"}, result.stdout
        assert _codes(result.stdout, "plain/m.py") == {"TF24101", "TF24103"}, result.stdout


def test_the_target_of_each_project(tmp_path):
    _project(tmp_path, "old", "[tool.tf24migrate]\ntarget-version = '2.3'\n")
    _project(tmp_path, "pinned")
    (tmp_path / "pinned" / "requirements.txt").write_text("tensorflow>=2.2,<2.5\n")
    _project(tmp_path, "new")
    result = run_in_process("--check", "old", "pinned", "new", cwd=tmp_path)
    lines = result.stdout.splitlines()
    for project, fixable in (("old", False), ("pinned", False), ("new", True)):
        (line,) = [line for line in lines if line.startswith(f"{project}/m.py:5:38: TF24103")]
        assert ("[fixable]" in line) is fixable, line
    assert "target is TensorFlow 2.3 (from old/pyproject.toml [tool.tf24migrate])" in result.stdout
    assert "target is TensorFlow 2.2 (from pinned/requirements.txt: tensorflow>=2.2,<2.5)" in result.stdout


def test_one_summary_and_the_exit_code_count_every_group(tmp_path):
    # `a` has nothing its rule would change; `b` has: `--check` must exit 1.
    text = "import tensorflow as tf\nstrategy.experimental_run_v2(f)\n"
    _project(tmp_path, "a", ONLY_TF24103, text=text)
    _project(tmp_path, "b", ONLY_TF24101, files=("m.py", "n.py"), text=text)
    result = run_in_process("--check", "a", "b", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[0] == "would change: b/m.py"
    summaries = [line for line in result.stderr.splitlines() if " scanned, " in line]
    assert len(summaries) == 1
    assert summaries[0].startswith(
        "tf24migrate: 3 files scanned, 2 to change, 0 failed, 2 findings (2 fixable, 0 left to you); "
    )
    assert run_in_process("--check", "a", cwd=tmp_path).returncode == 0


def test_the_summary_json_and_sarif_name_every_config(two):
    _project(two, "plain")
    result = run_in_process("--check", "a", "plain", "b/m.py", cwd=two)
    assert (
        "; 3 configs: a/pyproject.toml with target TensorFlow 2.4 (default: no TensorFlow version "
        "required in a), the defaults (no pyproject.toml) with target TensorFlow 2.4 (default: no "
        "project metadata found), b/pyproject.toml with target TensorFlow 2.4 (default: no TensorFlow "
        "version required in b) in "
    ) in result.stderr
    document = json.loads(run_in_process("--output-format", "json", "b", "plain", cwd=two).stdout)

    def default(source):
        return {"version": "2.4", "source": f"default: {source}", "newest": "2.4"}

    assert document["config"] == [
        {
            "path": "b/pyproject.toml",
            "project": "b",
            "target": default("no TensorFlow version required in b"),
        },
        {"path": None, "project": None, "target": default("no project metadata found")},
    ]
    assert "target" not in document
    assert [(f["path"], f["config"], f["project"]) for f in document["files"]] == [
        ("b/m.py", "b/pyproject.toml", "b"),
        ("plain/m.py", None, None),
    ]
    sarif = json.loads(run_in_process("--output-format", "sarif", "b", "plain", cwd=two).stdout)
    (invocation,) = sarif["runs"][0]["invocations"]
    assert invocation["properties"]["config"] == document["config"]
    rules = [rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]]
    assert rules[:2] == ["TF24103", "TF24101"]  # each group's rules in turn: `b`'s, then the defaults'
    assert len(rules) == len(set(rules))


def test_one_config_prints_as_before(two):
    result = run_in_process("--check", "a", cwd=two)
    assert (
        "; target TensorFlow 2.4 (default: no TensorFlow version required in a); config a/pyproject.toml in "
    ) in result.stderr
    document = json.loads(run_in_process("--output-format", "json", "a", cwd=two).stdout)
    assert document["config"] == "a/pyproject.toml"
    assert document["target"]["version"] == "2.4"
    assert "config" not in document["files"][0]
    sarif = json.loads(run_in_process("--output-format", "sarif", "a", cwd=two).stdout)
    assert "properties" not in sarif["runs"][0]["invocations"][0]


@pytest.mark.slow  # a run per project, then one over all
@pytest.mark.parametrize("options", [["--diff"], ["--check"], ["--output-format", "github"], ["-j", "2"]])
def test_results_are_those_of_one_run_per_project(tmp_path, options):
    # Nine files each: with -j 2 the workers run (from eight files on), and the cache is filled
    # by the first run and read by the second.
    names = [f"m{i}.py" for i in range(9)]
    _project(tmp_path, "a", ONLY_TF24101, files=names)
    _project(tmp_path, "b", ONLY_TF24103, files=names)
    alone = [run_in_process(*options, project, cwd=tmp_path) for project in ("a", "b")]
    for _ in range(2):
        together = run_in_process(*options, "a", "b", cwd=tmp_path)
        assert together.stdout == alone[0].stdout + alone[1].stdout
        assert _without_summary(together.stderr) == _without_summary(alone[0].stderr) + _without_summary(
            alone[1].stderr
        )
        assert together.returncode == max(r.returncode for r in alone)


def test_each_project_keeps_its_own_cache(two):
    env = {key: value for key, value in os.environ.items() if key != "TF24MIGRATE_CACHE_DIR"}
    assert run_in_process("--check", "a", "b", cwd=two, env=env).returncode == 1
    assert (two / "a" / ".tf24migrate_cache").is_dir()
    assert (two / "b" / ".tf24migrate_cache").is_dir()


def test_write_gives_the_files_one_run_per_project_gives(two):
    copy = two.parent / (two.name + "-copy")
    shutil.copytree(two, copy)
    for project in ("a", "b"):
        assert run_in_process("--write", project, cwd=copy).returncode == 0
    result = run_in_process("--write", "b", "a", cwd=two)
    assert result.returncode == 0, result.stderr
    for project in ("a", "b"):
        assert (two / project / "m.py").read_text() == (copy / project / "m.py").read_text()
    assert (two / "a" / "m.py").read_text() != (two / "b" / "m.py").read_text()


def test_files_from_and_stdin(two):
    (two / "list.txt").write_text("a/m.py\nb/m.py\n")
    result = run_in_process("--check", "--files-from", "list.txt", cwd=two)
    assert _codes(result.stdout, "a/m.py") == {"TF24101"}
    assert _codes(result.stdout, "b/m.py") == {"TF24103"}
    piped = run_in_process("--check", "--stdin-filename", "b/m.py", "-", cwd=two, stdin=SOURCE)
    assert _codes(piped.stderr, "b/m.py") == {"TF24103"}, piped.stderr


def test_a_bad_config_of_any_path_stops_the_run(two):
    (two / "b" / "pyproject.toml").write_text("[tool.tf24migrate]\nselect = ['nope']\n")
    result = run_in_process("--write", "a", "b", cwd=two)
    assert result.returncode == 2
    assert "b/pyproject.toml: [tool.tf24migrate] `select`: unknown rule selector 'nope'" in result.stderr
    assert (two / "a" / "m.py").read_text() == SOURCE  # nothing was written


def test_excludes_unsafe_fixes_and_jobs_are_each_project_s_own(two, monkeypatch):
    (two / "a" / "pyproject.toml").write_text(
        ONLY_TF24101 + "extend-exclude = ['legacy']\nunsafe-fixes = true\njobs = 3\n"
    )
    for project in ("a", "b"):
        (two / project / "legacy").mkdir()
        (two / project / "legacy" / "old.py").write_text(SOURCE)
    result = run_in_process("--check", "a", "b", cwd=two)
    assert "a/legacy/old.py" not in result.stdout
    assert _codes(result.stdout, "b/legacy/old.py") == {"TF24103"}, result.stdout

    from typer.testing import CliRunner

    from tf24migrate.cli import command, session

    seen = []

    def migrate_files(files, settings, *, jobs, **options):
        seen.append((files, settings.unsafe_fixes, jobs))
        yield from ()

    monkeypatch.setattr(session, "migrate_files", migrate_files)
    monkeypatch.chdir(two)
    assert CliRunner().invoke(command._app(), ["b", "a"]).exit_code == 0
    b_files = [os.path.join("b", "legacy", "old.py"), os.path.join("b", "m.py")]
    assert seen == [(b_files, False, 0), ([os.path.join("a", "m.py")], True, 3)]


def test_interactive_asks_with_each_project_s_rules(two):
    _project(two, "plain")
    # b/m.py: its one fix (TF24103), yes; plain/m.py: TF24101 yes, TF24103 no.
    result = run_in_process("--interactive", "b", "plain", cwd=two, stdin="y\ny\nn\n")
    assert result.returncode == 1, result.stderr  # the TF24103 error declined is left
    assert "options=h" in (two / "b" / "m.py").read_text()
    assert (two / "plain" / "m.py").read_text() == SOURCE.replace("experimental_run_v2", "run")


def test_a_nested_project_named_keeps_its_own_config_in_any_order(tmp_path):
    (tmp_path / "pyproject.toml").write_text(ONLY_TF24101)
    (tmp_path / "m.py").write_text(SOURCE)
    _project(tmp_path, "sub", ONLY_TF24103)
    for order in ([".", "sub"], ["sub", "."], [".", "sub/m.py"]):
        result = run_in_process("--check", *order, cwd=tmp_path)
        codes = {
            line.split(":")[0].removeprefix("./"): _codes(result.stdout, line.split(":")[0])
            for line in result.stdout.splitlines()
            if ".py:" in line
        }
        assert codes == {"m.py": {"TF24101"}, "sub/m.py": {"TF24103"}}, (order, result.stdout)
        assert result.stdout.count("would change: ") == 2, result.stdout
    walked = run_in_process("--check", ".", cwd=tmp_path)  # not named: the walk's config applies under it
    assert _codes(walked.stdout, "./sub/m.py") == {"TF24101"}, walked.stdout


def test_many_paths_read_each_folder_and_project_once(tmp_path, monkeypatch):
    from tf24migrate.cli.groups import Options, groups_of
    from tf24migrate.run import project_metadata

    (tmp_path / "requirements.txt").write_text("tensorflow>=2.3\n")
    paths = []
    for name in ("x", "y", "z"):
        (tmp_path / "pkg" / name).mkdir(parents=True)
        paths += [str(tmp_path / "pkg" / name / f"m{i}.py") for i in range(3)]
    listed, read = [], []
    real_listdir, real_target = project_metadata.os.listdir, project_metadata.project_target
    monkeypatch.setattr(
        project_metadata.os, "listdir", lambda path: listed.append(path) or real_listdir(path)
    )
    monkeypatch.setattr(
        project_metadata, "project_target", lambda path: read.append(path) or real_target(path)
    )
    (group,) = groups_of(paths, Options())
    assert group.target.version == (2, 3)
    folders = [tmp_path / "pkg", *(tmp_path / "pkg" / name for name in "xyz")]
    assert [listed.count(str(folder)) for folder in folders] == [1, 1, 1, 1], listed
    assert read == [str(tmp_path)]
