"""Interrupted with a machine-readable output (issue 31): the document of what was done is still
printed, complete and marked as partial."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

OLD = "import tensorflow as tf\nstrategy.experimental_run_v2(fn)\n"
NEW = "import tensorflow as tf\nstrategy.run(fn)\n"
FILES = 2000


def _interruptible() -> None:
    """Ctrl-C as a terminal's command gets it: a suite started in the background by a shell without
    job control ignores SIGINT, and so would the command it starts (Python keeps an ignored SIGINT
    ignored), whatever the command does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted_write(tmp_path, output_format: str) -> tuple[str, str, set[str]]:
    """`--write` over FILES files, Ctrl-C once the first is written: stdout, stderr and the files
    written, after checking that the command said it was interrupted."""
    # Enough files that the run still writes when Ctrl-C comes, on a loaded machine too: after the
    # first write, 400 took the command 0.4 s, and the signal once came after the last.
    for number in range(FILES):
        (tmp_path / f"m{number:04}.py").write_text(OLD)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tf24migrate",
            "--write",
            "--no-cache",
            "-j",
            "1",
            "--output-format",
            output_format,
            ".",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    deadline = time.monotonic() + 120
    while (tmp_path / "m0000.py").read_text() == OLD and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr
    written = {f"./{p.name}" for p in tmp_path.glob("m*.py") if p.read_text() == NEW}
    assert written and len(written) < FILES
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".tf24migrate-")]
    return stdout, stderr, written


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_in_text_output_prints_no_summary_of_a_whole_run(tmp_path):
    _, stderr, _ = _interrupted_write(tmp_path, "text")
    # The summary counts only the files done, and would read as the whole run's.
    assert "files scanned" not in stderr, stderr
    assert f"interrupted before all {FILES} files were done" in stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_ctrl_c_during_a_write_still_prints_the_record(tmp_path, output_format):
    stdout, _, written = _interrupted_write(tmp_path, output_format)
    document = json.loads(stdout)
    if output_format == "json":
        assert document["interrupted"] is True
        reported = {entry["path"] for entry in document["files"] if entry["status"] == "changed"}
    else:
        (invocation,) = document["runs"][0]["invocations"]
        assert invocation["executionSuccessful"] is False
        reported = {
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for result in document["runs"][0]["results"]
        }
        written = {path.removeprefix("./") for path in written}
    assert reported == written
