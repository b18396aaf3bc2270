"""The result cache under attack and accident (issue 31): a flipped byte or a planted entry is never
written, a cache folder is only ever the tool's own real folder, and no FIFO in it hangs a run."""

from __future__ import annotations

import os

import pytest
from command_line import run as run_command

OLD = b"import tensorflow as tf\nstrategy.experimental_run_v2(fn)\n"
NEW = b"import tensorflow as tf\nstrategy.run(fn)\n"


def run(*args, cwd, cache=None, timeout=60):
    environment = {k: v for k, v in os.environ.items() if k != "TF24MIGRATE_CACHE_DIR"}
    if cache is not None:
        environment["TF24MIGRATE_CACHE_DIR"] = str(cache)
    return run_command(*args, cwd=cwd, env=environment, timeout=timeout)


@pytest.fixture
def tree(tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    for number in range(20):
        (folder / f"m{number:02}.py").write_bytes(OLD)
    return folder


def _flip(entry, old: bytes, new: bytes) -> None:
    data = entry.read_bytes()
    assert old in data
    entry.write_bytes(data.replace(old, new))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_flipped_byte_in_an_entry_is_never_written(tree, tmp_path, jobs):
    cache = tmp_path / "cache"
    assert run("--check", "-j", jobs, ".", cwd=tree, cache=cache).returncode == 1
    entries = sorted((cache / "results").iterdir())
    assert len(entries) == 20
    for entry in entries[:2]:
        _flip(entry, b"strategy.run(fn)", b"strategy.rum(fn)")
    written = run("--write", "-j", jobs, ".", cwd=tree, cache=cache)
    assert written.returncode == 0, written.stderr
    assert [p.read_bytes() for p in sorted(tree.iterdir())] == [NEW] * 20


def test_a_flipped_byte_is_not_shown_in_a_diff_either(tree, tmp_path):
    cache = tmp_path / "cache"
    run("--check", "m00.py", cwd=tree, cache=cache)
    (entry,) = (cache / "results").iterdir()
    _flip(entry, b"strategy.run(fn)", b"strategy.rum(fn)")
    diff = run("--diff", "m00.py", cwd=tree, cache=cache)
    assert "+strategy.run(fn)" in diff.stdout and "rum" not in diff.stdout


def test_a_planted_entry_with_its_key_right_is_not_written(tree, tmp_path):
    """An entry whose digest was recomputed by its planter still only feeds a diff: a write
    migrates the file's own bytes again."""
    from tf24migrate.run import cache as cache_module

    cache = tmp_path / "cache"
    run("--check", "m00.py", cwd=tree, cache=cache)
    (entry,) = (cache / "results").iterdir()
    key = entry.name
    head, sealed_texts = cache_module._unsealed_line(key, entry.read_bytes())
    texts = cache_module._unsealed(key, sealed_texts).replace(b"strategy.run(fn)", b"import os; os.system(1)")
    entry.write_bytes(cache_module._sealed(key, head) + b"\n" + cache_module._sealed(key, texts))
    assert "+import os; os.system(1)" in run("--diff", "m00.py", cwd=tree, cache=cache).stdout
    assert run("--write", "m00.py", cwd=tree, cache=cache).returncode == 0
    assert (tree / "m00.py").read_bytes() == NEW


def test_a_check_leaves_the_texts_of_a_change_unread_and_a_diff_checks_them(tree, tmp_path):
    """`--check` names the files to change from the entries' first lines; a diff, which shows
    the texts, finds them damaged, migrates the file again and stores a sound entry."""
    cache = tmp_path / "cache"
    run("--check", "m00.py", cwd=tree, cache=cache)
    (entry,) = (cache / "results").iterdir()
    _flip(entry, b"strategy.run(fn)", b"strategy.rum(fn)")
    damaged = entry.read_bytes()
    check = run("--check", "m00.py", cwd=tree, cache=cache)
    assert check.returncode == 1 and "would change: m00.py" in check.stdout
    assert entry.read_bytes() == damaged  # served from the entry, whose texts were not read
    diff = run("--diff", "m00.py", cwd=tree, cache=cache)
    assert "+strategy.run(fn)" in diff.stdout and "rum" not in diff.stdout
    assert entry.read_bytes() != damaged


def test_a_cache_dir_pointing_at_a_source_folder_is_refused_and_left_alone(tree, tmp_path):
    before = sorted(p.name for p in tree.iterdir())
    result = run("--check", ".", cwd=tree, cache=tree)
    assert result.returncode == 1
    assert "not tf24migrate's cache" in result.stderr and "running without a cache" in result.stderr
    assert sorted(p.name for p in tree.iterdir()) == before  # no .gitignore, no results/
    again = run("--check", "--no-cache", ".", cwd=tree)
    assert again.stdout.count("would change") == 20


def test_a_cache_dir_flag_at_a_source_folder_is_refused(tree):
    result = run("--check", "--cache-dir", ".", ".", cwd=tree)
    assert "not tf24migrate's cache" in result.stderr
    assert not (tree / ".gitignore").exists()


def test_an_empty_folder_becomes_the_cache_with_its_marker(tree, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    run("--check", ".", cwd=tree, cache=cache)
    assert (cache / "CACHEDIR.TAG").read_bytes().startswith(b"Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache / ".gitignore").exists() and len(list((cache / "results").iterdir())) == 20
    second = run("--check", ".", cwd=tree, cache=cache)
    assert second.returncode == 1 and "cannot be used" not in second.stderr


@pytest.mark.parametrize("mode", ["--check", "--write"])
def test_a_planted_cache_symlink_receives_nothing(tree, tmp_path, mode):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tree / ".git").mkdir()  # the default cache folder is the repository's
    (tree / ".tf24migrate_cache").symlink_to(elsewhere)
    result = run(mode, ".", cwd=tree)
    assert "is a symlink" in result.stderr, result.stderr
    assert list(elsewhere.iterdir()) == []


def _fifo(path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


def test_a_fifo_for_an_entry_or_the_index_does_not_hang(tree, tmp_path):
    cache = tmp_path / "cache"
    run("--check", ".", cwd=tree, cache=cache)
    for entry in list((cache / "results").iterdir())[:3]:
        entry.unlink()
        _fifo(entry)
    for index in [p for p in cache.iterdir() if p.name.startswith("index-")]:
        index.unlink()
        _fifo(index)
    result = run("--check", ".", cwd=tree, cache=cache, timeout=60)
    assert result.returncode == 1 and result.stdout.count("would change") == 20


def test_a_fifo_named_dot_git_or_commondir_does_not_hang(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_bytes(OLD)
    _fifo(project / ".git")
    assert run("--check", "--no-cache", ".", cwd=project, timeout=60).returncode == 1
    os.unlink(project / ".git")
    (project / ".git").write_text(f"gitdir: {tmp_path / 'gitdir'}\n")
    _fifo(tmp_path / "gitdir" / "commondir")
    assert run("--check", "--no-cache", ".", cwd=project, timeout=60).returncode == 1
