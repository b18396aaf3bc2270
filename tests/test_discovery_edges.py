"""Discovery under torture: symlinks out of the named folder, loops, broken links, a FIFO named
`.gitignore`, an ignore file line git itself ignores."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from command_line import run_in_process

OLD = "import tensorflow as tf\nstrategy.experimental_run_v2(step_fn)\n"
NEW = "import tensorflow as tf\nstrategy.run(step_fn)\n"


def test_write_never_follows_a_symlink_out_of_the_named_folder(tmp_path):
    outside = tmp_path / "outside" / "secret.py"
    outside.parent.mkdir()
    outside.write_text(OLD)
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.py").symlink_to(outside)
    (project / "own.py").write_text(OLD)
    result = run_in_process("--write", "project", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert outside.read_text() == OLD
    assert (project / "own.py").read_text() == NEW
    assert "project/link.py: skipped: a symlink to " in result.stderr
    assert "outside the paths named (name that file to migrate it)" in result.stderr


def test_a_symlink_to_a_file_inside_the_named_folder_is_followed_once(tmp_path):
    (tmp_path / "own.py").write_text(OLD)
    (tmp_path / "alias.py").symlink_to(tmp_path / "own.py")
    result = run_in_process("--write", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "own.py").read_text() == NEW
    assert (tmp_path / "alias.py").is_symlink()
    assert "skipped" not in result.stderr


def test_symlink_loops_and_broken_links_are_skipped_with_a_note(tmp_path):
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    (tmp_path / "broken.py").symlink_to(tmp_path / "missing.py")
    (tmp_path / "own.py").write_text(OLD)
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # own.py is due; no traceback
    assert "./loop.py: skipped: a symlink loop" in result.stderr
    assert "./broken.py: skipped: a broken symlink" in result.stderr
    assert "Traceback" not in result.stderr and "Errno" not in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_gitignore_is_not_read(tmp_path):
    os.mkfifo(tmp_path / ".gitignore")
    (tmp_path / "own.py").write_text(OLD)
    command = [sys.executable, "-m", "tf24migrate", "--check", "."]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert "./own.py" in result.stdout


def test_a_gitignore_line_git_ignores_is_ignored(tmp_path):
    (tmp_path / ".gitignore").write_text("\\\nlegacy.py\n")
    (tmp_path / "legacy.py").write_text(OLD)
    (tmp_path / "own.py").write_text(OLD)
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "./own.py" in result.stdout and "legacy.py" not in result.stdout


def test_a_folder_named_env_is_walked_unless_it_is_a_virtual_environment(tmp_path):
    for folder in ("env", "tools_env"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "train.py").write_text(OLD)
    (tmp_path / "tools_env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    result = run_in_process("--check", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "env/train.py" in result.stdout
    assert "tools_env" not in result.stdout


@pytest.fixture
def vendored(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.tf24migrate]\nextend-exclude = ["third_party"]\n')
    for folder in ("third_party", "src"):
        (tmp_path / folder).mkdir()
    (tmp_path / "third_party" / "vendored.py").write_text(OLD)
    (tmp_path / "src" / "train.py").write_text(OLD)
    return tmp_path


def test_force_exclude_applies_the_excludes_to_named_files(vendored):
    named = ("third_party/vendored.py", "src/train.py")
    plain = run_in_process("--check", *named, cwd=vendored)
    assert "third_party/vendored.py" in plain.stdout and "src/train.py" in plain.stdout
    forced = run_in_process("--check", "--force-exclude", *named, cwd=vendored)
    assert forced.returncode == 1, forced.stderr
    assert "src/train.py" in forced.stdout and "vendored" not in forced.stdout
    forced_folder = run_in_process("--check", "--force-exclude", "third_party", cwd=vendored)
    assert forced_folder.returncode == 0 and "vendored" not in forced_folder.stdout


def test_force_exclude_from_pyproject(vendored):
    with open(vendored / "pyproject.toml", "a") as handle:
        handle.write("force-exclude = true\n")
    result = run_in_process("--write", "third_party/vendored.py", "src/train.py", cwd=vendored)
    assert result.returncode == 0, result.stderr
    assert (vendored / "third_party" / "vendored.py").read_text() == OLD
    assert (vendored / "src" / "train.py").read_text() == NEW
    overridden = run_in_process("--write", "--no-force-exclude", "third_party/vendored.py", cwd=vendored)
    assert overridden.returncode == 0 and (vendored / "third_party" / "vendored.py").read_text() == NEW


@pytest.mark.parametrize(
    "relative",
    ["build", "build/x.py", "a/build/x.py", "a/builder/x.py", "venv", "src/venv/lib.py", "x.py", "dist.py"],
)
@pytest.mark.parametrize("is_dir", [False, True])
def test_bare_name_excludes_match_as_pathspec_matches(tmp_path, relative, is_dir):
    """The default excludes are bare names, matched without pathspec: the same verdicts."""
    import pathspec

    from tf24migrate.run.discovery import DEFAULT_EXCLUDE, PathFilter, _Walker

    walker = _Walker((".py",), PathFilter(root=str(tmp_path)), [str(tmp_path)], lambda path, why: None)
    assert walker.excluded_names is not None  # the fast path is taken
    expected = pathspec.GitIgnoreSpec.from_lines(DEFAULT_EXCLUDE).check_file(relative + "/" * is_dir).include
    path = str(tmp_path / relative)
    assert walker._is_excluded(path, relative.rsplit("/", 1)[-1], is_dir) is bool(expected)
