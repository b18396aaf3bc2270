"""Which files a run takes: ignore files, excludes, hidden folders, virtual environments, config."""

from __future__ import annotations

import os
import subprocess

import pytest
from command_line import run_in_process

from tf24migrate.run.discovery import DEFAULT_EXCLUDE, PathFilter, iter_source_files

DUE = "strategy.experimental_run_v2(step_fn)\n"


def tree(root, *paths):
    for path in paths:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(DUE)


def found(root, path_filter=None, *paths):
    return [
        p[len(str(root)) + 1 :]
        for p in iter_source_files([str(root / p) for p in paths or ["."]], (".py",), path_filter)
    ]


def changed(result):
    prefix = "would change: "
    return [line[len(prefix) :] for line in result.stdout.splitlines() if line.startswith(prefix)]


@pytest.fixture
def repository(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    tree(
        tmp_path,
        "a.py",
        "generated/g.py",
        "pkg/b.py",
        "pkg/keep_me.py",
        "pkg/sub/c.py",
        "pkg/sub/local.py",
        "pkg/z.py",
        "scratch.py",
        ".hidden/h.py",
        "venv2/lib/v.py",
        "build/out.py",
        "node_modules/n.py",
    )
    (tmp_path / "venv2" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "notes.txt").write_text(DUE)
    (tmp_path / ".gitignore").write_text("generated/\npkg/*.py\n!pkg/keep_me.py\n")
    (tmp_path / "pkg" / "sub" / ".gitignore").write_text("local.py\n")
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("scratch.py\n")
    return tmp_path


def test_walk_honours_nested_ignore_files_hidden_folders_and_virtualenvs(repository):
    assert found(repository / ".") == ["a.py", "pkg/keep_me.py", "pkg/sub/c.py"]


def test_ignore_files_above_the_walked_folder_count(repository):
    assert found(repository / "pkg") == ["keep_me.py", "sub/c.py"]


def test_no_ignore_turns_ignore_files_off(repository):
    everything = found(repository / ".", PathFilter(respect_ignore_files=False))
    assert everything == [
        "a.py",
        "generated/g.py",
        "pkg/b.py",
        "pkg/keep_me.py",
        "pkg/sub/c.py",
        "pkg/sub/local.py",
        "pkg/z.py",
        "scratch.py",
    ]


def test_excludes_replace_or_extend_the_defaults(repository):
    no_defaults = PathFilter(exclude=(), respect_ignore_files=False, root=str(repository))
    assert "build/out.py" in found(repository / ".", no_defaults)
    assert "node_modules/n.py" in found(repository / ".", no_defaults)
    extended = PathFilter(extend_exclude=("pkg/sub", "a.py"), root=str(repository))
    assert found(repository / ".", extended) == ["pkg/keep_me.py"]
    assert "build" in DEFAULT_EXCLUDE


def test_a_named_folder_is_walked_even_if_ignored_or_excluded(repository):
    tree(repository, "generated/deep/d.py", "build/lib/x.py", "build/lib/ignored.py")
    (repository / "generated" / ".gitignore").write_text("deep/\n")
    (repository / ".gitignore").write_text("generated/\nbuild/\nignored.py\n")
    assert found(repository / "generated") == ["g.py"]
    # The ignore files above a named ignored folder no longer count (only those inside it do).
    assert found(repository / "build") == ["lib/ignored.py", "lib/x.py", "out.py"]
    assert found(repository / "build", PathFilter(extend_exclude=("lib",), root=str(repository))) == [
        "out.py"
    ]


def test_paths_come_out_sorted(tmp_path):
    tree(tmp_path, "b.py", "a/z.py", "a.py", "a/b/c.py", "c/a.py")
    assert found(tmp_path) == ["a/b/c.py", "a/z.py", "a.py", "b.py", "c/a.py"]


def test_named_files_are_always_processed(repository):
    result = run_in_process("--check", "generated/g.py", "scratch.py", ".hidden/h.py", cwd=repository)
    assert result.returncode == 1
    for name in ("generated/g.py", "scratch.py", ".hidden/h.py"):
        assert f"would change: {name}" in result.stdout


def test_a_named_file_of_another_kind_is_skipped_not_failed(repository):
    (repository / "NOTES.md").write_text("# Notes\n\nstrategy.experimental_run_v2(fn) is gone.\n")
    result = run_in_process("--check", "NOTES.md", "notes.txt", "a.py", cwd=repository)
    assert result.returncode == 1, result.stderr  # a.py is due; the skips do not count
    assert "tf24migrate: NOTES.md: skipped: not a file tf24migrate handles" in result.stderr
    assert "tf24migrate: notes.txt: skipped" in result.stderr
    assert "1 file scanned, 1 to change, 0 failed" in result.stderr
    alone = run_in_process("NOTES.md", cwd=repository)
    assert alone.returncode == 0, alone.stderr
    assert "skipped" in alone.stderr and "error" not in alone.stderr
    (repository / "train").write_text("#!/usr/bin/env python3\n" + DUE)
    (repository / "types.pyi").write_text(DUE)
    kinds = run_in_process("--check", "train", "types.pyi", cwd=repository)
    assert "would change: train" in kinds.stdout and "would change: types.pyi" in kinds.stdout


def test_exclude_options_on_the_command_line(repository):
    result = run_in_process("--check", "--extend-exclude", "pkg/sub,a.py", ".", cwd=repository)
    assert changed(result) == ["./pkg/keep_me.py"]
    result = run_in_process(
        "--check", "--no-ignore", "--exclude", "", ".", cwd=repository
    )  # no default excludes
    assert "./build/out.py" in changed(result) and "./pkg/b.py" in changed(result)
    result = run_in_process("--check", "--no-ignore", "--exclude", "pkg,generated", ".", cwd=repository)
    assert changed(result) == ["./a.py", "./build/out.py", "./node_modules/n.py", "./scratch.py"]


def test_files_from_a_file_and_from_stdin(repository):
    (repository / "list.txt").write_text("a.py\n\npkg/sub\n")
    result = run_in_process("--check", "--files-from", "list.txt", cwd=repository)
    assert changed(result) == ["a.py", "pkg/sub/c.py"]
    result = run_in_process("--check", "--files-from", "-", "scratch.py", cwd=repository, stdin="a.py\n")
    assert changed(result) == ["scratch.py", "a.py"]


def test_an_unreadable_virtual_environment_is_left_out_without_a_note(tmp_path, monkeypatch):
    (tmp_path / "train.py").write_text("x = 1\n")
    venv = tmp_path / "env"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr\n")
    scandir = os.scandir

    def unreadable(path="."):  # as for a user who may not list it (root lists any folder)
        if os.path.abspath(path) == str(venv):
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", unreadable)
    skipped = []
    found = list(iter_source_files([str(tmp_path)], on_skip=lambda *args, **kw: skipped.append(args)))
    assert found == [str(tmp_path / "train.py")]
    assert skipped == []


@pytest.mark.parametrize(
    "spelling",
    ["/tf24_root_level.py", "a.py", "./a.py", "sub/b.py", "sub//b.py", "sub/../a.py", "{tmp}/sub/b.py"],
)
def test_a_files_real_path_is_os_path_realpaths(tmp_path, monkeypatch, spelling):
    """Files named twice are taken once, by their real path: the walk's own resolution of it
    (each folder resolved once) must be `os.path.realpath`'s. A file at the root of the file
    system (`/x.py`) is in `/`, not in the current folder, where a file of that name is another."""
    from tf24migrate.run.discovery import _real_path

    tree(tmp_path, "a.py", "sub/b.py")
    monkeypatch.chdir(tmp_path)
    path = spelling.format(tmp=tmp_path)
    assert _real_path(path, {}, False) == os.path.realpath(path)
