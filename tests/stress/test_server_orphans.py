"""A server killed (SIGKILL: no clean-up of its own) while its worker migrates a big module: the
worker ends within a second or two, not after the job, which took it 11 s more on a 20 MB module
(issue 46: killed servers and orphan workers)."""

from __future__ import annotations

import time
from pathlib import Path

from hostile_inputs import big_module
from lsp_raw import RawServer
from processes import all_ended, children, wait_for_children


def test_a_worker_at_a_job_ends_with_its_killed_server(tmp_path: Path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    server = RawServer(project)
    try:
        assert server.initialize(project, {"timeout": 600}) is not None
        assert wait_for_children(server.process.pid)
        server.open((project / "big.py").as_uri(), big_module(10 << 20))
        time.sleep(2)  # the worker has the job: its migration takes several seconds more
        workers = children(server.process.pid)
        server.process.kill()
        server.process.wait()
        killed = time.monotonic()
        assert all_ended(workers, timeout=30)
        assert time.monotonic() - killed < 3
    finally:
        server.close(10)
