"""Workers killed from outside (issue 31): the run ends, names once the file whose worker died and
of what, migrates the others, and is not taken for interrupted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from processes import children

OLD = (
    b"import tensorflow as tf\n" + b"x = '" + b"a" * 400_000 + b"'\n" + b"strategy.experimental_run_v2(fn)\n"
)
NEW = OLD.replace(b"experimental_run_v2(", b"run(")

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.mark.slow  # kills worker processes
@posix_only
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_a_worker_killed_from_outside_fails_its_file_only(tmp_path, signum):
    for number in range(40):
        (tmp_path / f"m{number:02}.py").write_bytes(OLD)  # large results to send back
    process = subprocess.Popen(
        [sys.executable, "-m", "tf24migrate", "--write", "--no-cache", "-j", "2", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while len(children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    os.kill(children(process.pid)[0], signum)
    _, stderr = process.communicate(timeout=180)
    assert "interrupted" not in stderr and "Traceback" not in stderr
    contents = {path.name: path.read_bytes() for path in tmp_path.glob("m*.py")}
    left = sorted(name for name, data in contents.items() if data == OLD)
    assert set(contents.values()) <= {OLD, NEW}
    if process.returncode == 0:  # the worker had finished its files: nothing lost
        assert left == []
        return
    assert process.returncode == 2, stderr
    said = [line for line in stderr.splitlines() if f"killed by {signal.Signals(signum).name}" in line]
    assert len(said) == len(left) == 1, stderr  # once, naming the one file it held
    assert said[0].startswith(f"./{left[0]}: error: not migrated: its worker process was killed")
