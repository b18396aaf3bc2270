"""The write path under torture: an edit landing while the new text is being written, two runs over
one tree, read-only files, hard links, owners, extended attributes, a killed run's leftovers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest
from command_line import run

from tf24migrate.run import files, temporaries
from tf24migrate.run.files import ChangedOnDisk, digest, write_source
from tf24migrate.run.temporaries import TEMPORARY_PREFIX

OLD = b"import tensorflow as tf\nstrategy.experimental_run_v2(step_fn)\n"
NEW = b"import tensorflow as tf\nstrategy.run(step_fn)\n"


def _editor_save(path, data: bytes) -> None:
    path.with_suffix(".swp").write_bytes(data)
    os.replace(path.with_suffix(".swp"), path)  # as editors save: a new file renamed over the old


def _in_place_save(path, data: bytes) -> None:
    path.write_bytes(data)


_SWAPS = pytest.mark.skipif(
    files._renameat2() is None, reason="no renameat2: a plain rename, its window open"
)


@pytest.mark.parametrize(
    ("after", "save"),
    [
        pytest.param("_copy_metadata", _in_place_save, id="before-the-last-check"),
        pytest.param("_check_unchanged", _editor_save, id="after-the-last-check-renamed", marks=_SWAPS),
        pytest.param("_check_unchanged", _in_place_save, id="after-the-last-check-in-place", marks=_SWAPS),
    ],
)
def test_a_save_while_the_new_text_is_written_is_not_overwritten(tmp_path, monkeypatch, after, save):
    """The user's editor saves while the run writes: once the new text is on disk, before the last
    check (which sees it); or between that check and the rename, the window the torture suite's
    concurrent editor found (1 file of 600, now and then), which the rename, a swap, sees."""
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    edit = b"# the user's edit\n" + OLD
    step = getattr(files, after)

    def the_user_saves_meanwhile(*args):
        step(*args)
        save(path, edit)

    monkeypatch.setattr(files, after, the_user_saves_meanwhile)
    with pytest.raises(ChangedOnDisk):
        write_source(str(path), NEW.decode(), "utf-8", expected_digest=digest(OLD))
    assert path.read_bytes() == edit
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


@_SWAPS
def test_a_save_landing_while_the_users_file_is_swapped_back_stays(tmp_path, monkeypatch):
    """Two saves inside the window: the newest is what stays."""
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    first, second = b"# first save\n" + OLD, b"# second save\n" + OLD
    check_unchanged, exchange = files._check_unchanged, files._exchange
    swaps = []

    def the_user_saves_right_after_the_check(*args):
        check_unchanged(*args)
        _editor_save(path, first)

    def exchange_with_a_save_before_the_second(folder, one, other):
        swaps.append(one)
        if len(swaps) == 2:
            _editor_save(path, second)
        return exchange(folder, one, other)

    monkeypatch.setattr(files, "_check_unchanged", the_user_saves_right_after_the_check)
    monkeypatch.setattr(files, "_exchange", exchange_with_a_save_before_the_second)
    with pytest.raises(ChangedOnDisk):
        write_source(str(path), NEW.decode(), "utf-8", expected_digest=digest(OLD))
    assert path.read_bytes() == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]
    assert len(swaps) == 3


def test_an_unchanged_file_is_replaced_with_nothing_left_beside_it(tmp_path):
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    write_source(str(path), NEW.decode(), "utf-8", expected_digest=digest(OLD))
    assert path.read_bytes() == NEW
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]


def test_writers_in_one_folder_take_turns(tmp_path, monkeypatch):
    """Two writers of one file, each with the digest it read: one wins, the other is refused; the
    second never replaces the first one's text (its check and rename wait for the lock)."""
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    inside = threading.Event()
    release = threading.Event()
    copy_metadata = files._copy_metadata

    def slow(*args):
        copy_metadata(*args)
        if threading.current_thread().name == "first":
            inside.set()
            release.wait(5)

    monkeypatch.setattr(files, "_copy_metadata", slow)
    outcomes: dict[str, object] = {}

    def write(name: str, text: bytes) -> None:
        try:
            write_source(str(path), text.decode(), "utf-8", expected_digest=digest(OLD))
            outcomes[name] = "written"
        except ChangedOnDisk:
            outcomes[name] = "refused"

    first = threading.Thread(target=write, args=("first", NEW), name="first")
    first.start()
    assert inside.wait(5)
    second = threading.Thread(target=write, args=("second", b"# second\n" + NEW), name="second")
    second.start()
    second.join(0.3)
    assert second.is_alive(), "the second writer did not wait for the first"
    release.set()
    first.join(5)
    second.join(5)
    assert outcomes == {"first": "written", "second": "refused"}
    assert path.read_bytes() == NEW


def test_two_runs_over_one_tree_lose_none_of_each_others_rewrites(tmp_path):
    """Each run rewrites another name; a file a run reports as written holds its rewrite at the
    end, whatever the other run did meanwhile (it refuses a file that changed under it)."""
    both = b"import tensorflow as tf\ns.experimental_run_v2(f)\ns.experimental_distribute_datasets_from_function(g)\n"
    for index in range(150):
        (tmp_path / f"train_{index}.py").write_bytes(both)
    renames = {"TF24101": b"s.run(f)", "TF24102": b"s.distribute_datasets_from_function(g)"}
    runs = {
        code: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tf24migrate",
                "--write",
                "--select",
                code,
                "--output-format",
                "json",
                ".",
            ],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for code in renames
    }
    reports = {code: json.loads(process.communicate(timeout=180)[0]) for code, process in runs.items()}
    for code, report in reports.items():
        written = [entry["path"] for entry in report["files"] if entry["status"] == "changed"]
        assert written, f"the {code} run wrote nothing"
        for name in written:
            assert renames[code] in (tmp_path / name).read_bytes(), f"{name}: the {code} rewrite was lost"


def test_a_read_only_file_is_refused_even_for_root(tmp_path):
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    path.chmod(0o444)
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "train.py is read-only (no write permission): make it writable to migrate it" in result.stderr
    assert path.read_bytes() == OLD


def test_a_hard_link_is_never_split(tmp_path):
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    os.link(path, tmp_path / "other_name.py")
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "train.py has 2 hard links: replacing it would split them" in result.stderr
    assert path.read_bytes() == OLD and os.stat(path).st_nlink == 2


@pytest.mark.skipif(not hasattr(os, "chown") or os.geteuid() != 0, reason="needs root to give a file away")
def test_owner_and_group_are_kept(tmp_path):
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    os.chown(path, 1234, 5678)
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() == NEW
    assert (os.stat(path).st_uid, os.stat(path).st_gid) == (1234, 5678)


def test_extended_attributes_are_kept(tmp_path):
    path = tmp_path / "train.py"
    path.write_bytes(OLD)
    try:
        os.setxattr(path, "user.origin", b"vendored")
    except (OSError, AttributeError):
        pytest.skip("this file system has no user extended attributes")
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() == NEW
    assert os.getxattr(path, "user.origin") == b"vendored"


def _leftover_of_a_killed_run(folder) -> str:
    """A temporary file as a write of this tool makes it, left behind (as by a killed run)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        name, handle = temporaries.create_temporary(fd)
        os.write(handle, b"half a file")
        os.close(handle)
    finally:
        os.close(fd)
    return name


def test_a_killed_runs_temporary_file_is_removed_by_the_next_write(tmp_path):
    leftover = tmp_path / _leftover_of_a_killed_run(tmp_path)
    (tmp_path / "train.py").write_bytes(OLD)
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not leftover.exists()
    assert (tmp_path / "train.py").read_bytes() == NEW


@pytest.mark.parametrize("name", [f"{TEMPORARY_PREFIX}x.tmp", f"{TEMPORARY_PREFIX}abc123.tmp", "other inode"])
def test_a_users_file_named_like_a_temporary_file_is_kept(tmp_path, name):
    """Only a file that proves to be the tool's own is removed: a user's file of the same form,
    or one named as the tool would name a file of another inode, is not."""
    if name == "other inode":
        keep = tmp_path / "keep"
        keep.write_bytes(b"")  # holds the leftover's inode, which the user's file cannot reuse
        name = _leftover_of_a_killed_run(tmp_path)
        os.replace(tmp_path / name, keep)
    users = tmp_path / name
    users.write_bytes(b"the user's notes\n")
    (tmp_path / "train.py").write_bytes(OLD)
    result = run("--write", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert users.read_bytes() == b"the user's notes\n"
    assert (tmp_path / "train.py").read_bytes() == NEW
