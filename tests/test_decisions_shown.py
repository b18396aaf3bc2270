"""`--show-settings`, `--show-files` and `-v`/`--verbose` (as ruff's): what the command decided for
each path, through the command."""

from __future__ import annotations

from command_line import run_in_process

CODE = "import tensorflow as tf\nstrategy.experimental_run_v2(f)\n"


def project(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "pyproject.toml").write_text(
        '[tool.tf24migrate]\ntarget-version = "2.3"\nignore = ["TF242"]\nper-file-ignores = {"t_*.py" = ["TF24101"]}\n'
    )
    (tmp_path / "a" / "train.py").write_text(CODE)
    (tmp_path / "a" / "build").mkdir()
    (tmp_path / "a" / "build" / "gen.py").write_text(CODE)  # excluded by default
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "other.py").write_text(CODE)
    return tmp_path


def test_show_settings_prints_each_paths_settings_as_toml_and_exits(tmp_path):
    result = run_in_process("--show-settings", "a", "b", "--no-cache", cwd=project(tmp_path))
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.split("\n\n")
    assert first.splitlines()[:5] == [
        "# a",
        'config = "a/pyproject.toml"',
        'target-version = "2.3"  # from a/pyproject.toml [tool.tf24migrate]',
        "select = []  # the default rules",
        'ignore = ["TF242"]',
    ]
    assert 'per-file-ignores = {"t_*.py" = ["TF24101"]}' in first
    assert 'cache-dir = ""  # none: --no-cache' in first
    assert second.splitlines()[:2] == ["# b", 'config = ""  # the defaults']
    assert "scanned" not in result.stderr  # no run: no summary


def test_show_files_lists_what_a_run_would_migrate(tmp_path):
    result = run_in_process("--show-files", "a", "b", cwd=project(tmp_path))
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["a/train.py", "b/other.py"]  # a/build/ is excluded


def test_verbose_says_settings_files_and_cache_on_stderr(tmp_path):
    project(tmp_path)
    cold = run_in_process("-v", "--check", "a", cwd=tmp_path)
    assert 'tf24migrate: config = "a/pyproject.toml"' in cold.stderr
    assert "tf24migrate: 1 file to migrate, 0 of them with a result in the cache" in cold.stderr
    warm = run_in_process("--verbose", "--check", "a", cwd=tmp_path)
    assert "tf24migrate: 1 file to migrate, 1 of them with a result in the cache" in warm.stderr
    assert warm.stdout == cold.stdout  # the findings as without -v
    assert "tf24migrate: left out: a/build: excluded (exclude, extend-exclude)" in cold.stderr


def test_show_settings_splits_a_folder_by_the_project_each_file_is_in(tmp_path):
    for project, requirement in (("old", "tensorflow==2.3.0"), ("new", "tensorflow>=2.4")):
        (tmp_path / project).mkdir()
        (tmp_path / project / "requirements.txt").write_text(requirement + "\n")
        (tmp_path / project / "train.py").write_text(CODE)
    result = run_in_process("--show-settings", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    sections = [section.splitlines()[:3] for section in result.stdout.split("\n\n")]
    assert [(lines[0], lines[2].split("  #")[0]) for lines in sections] == [
        ("# . (project new)", 'target-version = "2.4"'),
        ("# . (project old)", 'target-version = "2.3"'),
    ]
