"""`[tool.tf24migrate]` in pyproject.toml: discovery upwards, strict keys, command line precedence."""

from __future__ import annotations

import textwrap

import pytest
from command_line import run_in_process
from test_cli import OLD

from tf24migrate.run.config import Config, ConfigError, find_pyproject, load_config

HINTS = "strategy.reduce('SUM', x, axis=None, experimental_hints=h)\n"


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [project]
            name = "demo"

            [tool.tf24migrate]
            select = ["TF24103"]
            extend-exclude = ["legacy"]
            jobs = 1
            """
        )
    )
    (tmp_path / "src" / "legacy").mkdir(parents=True)
    (tmp_path / "src" / "train.py").write_text(OLD + HINTS)
    (tmp_path / "src" / "legacy" / "old.py").write_text(OLD)
    return tmp_path


def test_found_from_a_path_upwards(project):
    config = load_config(find_pyproject(str(project / "src" / "train.py")))
    assert config == Config(
        path=str(project / "pyproject.toml"), select=("TF24103",), extend_exclude=("legacy",), jobs=1
    )
    assert config.root == str(project)
    assert find_pyproject(str(project.parent)) is None


def test_unknown_keys_and_wrong_types_are_errors_naming_them(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.tf24migrate]\nselect = ['TF241']\nexclude-globs = ['x']\n")
    with pytest.raises(ConfigError, match="unknown key 'exclude-globs'"):
        load_config(str(path))
    path.write_text("[tool.tf24migrate]\njobs = 'many'\n")
    with pytest.raises(ConfigError, match=r"`jobs` must be 0 .* or a positive whole number"):
        load_config(str(path))
    path.write_text("[tool.tf24migrate]\nunsafe-fixes = 1\n")
    with pytest.raises(ConfigError, match="`unsafe-fixes` must be true or false"):
        load_config(str(path))
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "pyproject.toml: [tool.tf24migrate]: `unsafe-fixes` must be true or false" in result.stderr


def test_the_config_applies_and_the_command_line_overrides_it(project):
    from_config = run_in_process("--check", "src", cwd=project)
    assert "TF24103" in from_config.stdout and "TF24101" not in from_config.stdout
    assert "legacy" not in from_config.stdout
    overridden = run_in_process(
        "--check", "--select", "TF24101", "--extend-exclude", "nothing", "src", cwd=project
    )
    assert "TF24101" in overridden.stdout and "TF24103" not in overridden.stdout
    assert "would change: src/legacy/old.py" in overridden.stdout


def test_unsafe_fixes_and_jobs_from_config_and_from_the_command_line(tmp_path, monkeypatch):
    # No rule has an unsafe fix yet, so look at the settings the command hands to the run.
    from typer.testing import CliRunner

    from tf24migrate.cli import command as cli
    from tf24migrate.cli import session as batch

    seen = []

    def migrate_files(files, settings, *, jobs, **options):
        seen.append((settings.unsafe_fixes, jobs))
        yield from ()

    monkeypatch.setattr(batch, "migrate_files", migrate_files)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\nunsafe-fixes = true\njobs = 3\n")
    (tmp_path / "m.py").write_text(OLD)
    app = cli._app()
    for args in (["m.py"], ["--no-unsafe-fixes", "-j", "1", "m.py"]):
        assert CliRunner().invoke(app, args).exit_code == 0
    assert seen == [(True, 3), (False, 1)]


def test_an_unknown_rule_in_the_config_names_the_file_and_the_key(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\nselect = ['TF241']\nignore = ['TF249']\n")
    result = run_in_process("--check", "a.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "pyproject.toml: [tool.tf24migrate] `ignore`: unknown rule selector 'TF249'" in result.stderr
    assert (
        run_in_process("--check", "--ignore", "TF24101", "a.py", cwd=tmp_path).returncode == 0
    )  # the flag wins
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\nselect = ['nope']\n")
    result = run_in_process("--check", "a.py", cwd=tmp_path)
    assert "pyproject.toml: [tool.tf24migrate] `select`: unknown rule selector 'nope'" in result.stderr


def test_negative_jobs_in_the_config_says_what_is_allowed(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\njobs = -1\n")
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        "`jobs` must be 0 (one worker process per core) or a positive whole number "
        "(that many worker processes; 1: none), not -1" in result.stderr
    )


def test_cache_dir_in_the_config_is_relative_to_the_file_and_must_be_a_string(tmp_path):
    from tf24migrate.run.config import load_config

    (tmp_path / "pyproject.toml").write_text('[tool.tf24migrate]\ncache-dir = "build/tf24"\n')
    assert load_config(str(tmp_path / "pyproject.toml")).cache_dir == str(tmp_path / "build" / "tf24")
    (tmp_path / "pyproject.toml").write_text("[tool.tf24migrate]\ncache-dir = 3\n")
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "`cache-dir` must be a folder's path as a string, not 3" in result.stderr
