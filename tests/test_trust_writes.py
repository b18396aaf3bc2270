"""Writes under attack and accident (issue 31): a file or folder swapped for a symlink during the
run is not written through, and a folder locked by someone else makes a write wait a bounded time,
interruptibly, naming who holds the lock."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tf24migrate import migrate_paths
from tf24migrate.run import folder_lock, migrate

OLD = b"import tensorflow as tf\nstrategy.experimental_run_v2(fn)\n"
NEW = b"import tensorflow as tf\nstrategy.run(fn)\n"


def _swap_file(src, outside):
    target = src / "train.py"
    target.unlink()
    target.symlink_to(outside / "train.py")


def _swap_folder(src, outside):
    shutil.rmtree(src / "pkg")
    (src / "pkg").symlink_to(outside / "pkg")


def _swap_folder_above(src, outside):
    os.rename(src, src.parent / "moved")
    src.symlink_to(outside)


@pytest.mark.parametrize("swap", [_swap_file, _swap_folder, _swap_folder_above])
def test_a_file_or_folder_swapped_for_a_symlink_is_not_written_through(tmp_path, monkeypatch, swap):
    src, outside = tmp_path / "src", tmp_path / "outside"
    for root in (src, outside):
        (root / "pkg").mkdir(parents=True)
        (root / "train.py").write_bytes(OLD)
        (root / "pkg" / "model.py").write_bytes(OLD)
    write_result = migrate.write_result
    swapped = []

    def swapping_before_the_first_write(*args, **kwargs):
        if not swapped:
            swap(src, outside)
            swapped.append(True)
        return write_result(*args, **kwargs)

    monkeypatch.setattr(migrate, "write_result", swapping_before_the_first_write)
    results = list(migrate_paths([str(src)], write=True))
    assert swapped
    assert (outside / "train.py").read_bytes() == OLD
    assert (outside / "pkg" / "model.py").read_bytes() == OLD
    refused = [r for r in results if not r.written]
    assert refused and all("symlink" in r.error for r in refused), [r.error for r in results]


def test_a_symlink_named_is_still_written_through(tmp_path):
    (tmp_path / "real.py").write_bytes(OLD)
    (tmp_path / "link.py").symlink_to(tmp_path / "real.py")
    (result,) = migrate_paths([str(tmp_path / "link.py")], write=True)
    assert result.written and (tmp_path / "real.py").read_bytes() == NEW
    assert (tmp_path / "link.py").is_symlink()


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock(1)")
def test_a_folder_locked_by_another_process_is_named_and_not_waited_on_forever(tmp_path, monkeypatch):
    (tmp_path / "train.py").write_bytes(OLD)
    holder = subprocess.Popen(
        ["flock", "-x", str(tmp_path), "sh", "-c", "echo held; exec sleep 60"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"  # the lock is taken
        monkeypatch.setattr(folder_lock, "LOCK_TIMEOUT", 0.2)
        started = time.monotonic()
        (result,) = migrate_paths([str(tmp_path / "train.py")], write=True)
        assert time.monotonic() - started < 20
        assert not result.written and f"locked by process {holder.pid} (" in result.error
        assert (
            result.error.startswith("cannot write: the folder ") and result.error.count("cannot write") == 1
        )
        assert (tmp_path / "train.py").read_bytes() == OLD
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.slow  # waits on a lock held by its own parent
@pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock(1)")
def test_the_command_under_flock_of_its_own_folder_ends(tmp_path):
    """`flock -x src tf24migrate --write src`: the lock the command inherits is its parent's; the
    write says who holds it instead of waiting forever (30 s), and Ctrl-C ends the wait at once."""
    (tmp_path / "train.py").write_bytes(OLD)
    command = ["flock", "-x", str(tmp_path), sys.executable, "-m", "tf24migrate", "--write", "train.py"]
    process = subprocess.Popen(
        command, cwd=tmp_path, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    time.sleep(3)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode != 0 and "interrupted" in stderr, stderr
    assert "cannot write: interrupted while waiting for the lock" in stderr, stderr
    assert "cannot write: cannot write" not in stderr and "all 1 files" not in stderr, stderr
    assert "interrupted before its one file was done" in stderr, stderr
    assert (tmp_path / "train.py").read_bytes() == OLD


def _append_only(folder) -> bool:
    """Make `folder` append-only (`chattr +a`: root, on a file system that has the flag)."""
    if shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", "+a", str(folder)], capture_output=True).returncode == 0


def test_an_append_only_folder_is_refused_and_left_as_it_was(tmp_path):
    """Files can be added to an append-only folder, none renamed or removed: a temporary file made
    there would stay for good. The write is refused, saying why, before any is made."""
    folder = tmp_path / "log"
    folder.mkdir()
    (folder / "train.py").write_bytes(OLD)
    if not _append_only(folder):
        pytest.skip("chattr +a is not allowed here")
    try:
        command = [sys.executable, "-m", "tf24migrate", "--write", "--no-cache", "train.py"]
        result = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
        names = sorted(os.listdir(folder))
    finally:
        subprocess.run(["chattr", "-a", str(folder)], check=True)
    assert result.returncode == 2
    assert "is append-only (`chattr +a`)" in result.stderr, result.stderr
    assert names == ["train.py"]
    assert (folder / "train.py").read_bytes() == OLD
