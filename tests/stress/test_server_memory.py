"""The language server's memory on a big module: the server and its worker together grow by at
most `FACTOR` times the bytes of the text the editor sent, through a check, a check again with
another configuration, and a code action over the whole file (issue 46: 13.5-20x before the
document's line starts were an array of machine ints, tokenizing stopped copying the text into an
`io.StringIO`, and glibc kept big blocks apart, `server.heap`)."""

from __future__ import annotations

import os
from pathlib import Path

from hostile_inputs import CALL, OLD, big_module
from knobs import FULL
from lsp_raw import RawServer
from processes import PeakMemory, wait_for_children

from tf24migrate.server.wire import MAX_MESSAGE

FACTOR = 10


def test_a_big_module_costs_the_server_at_most_ten_times_its_size(tmp_path: Path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    server = RawServer(project, env={**os.environ, "TMPDIR": str(tmp_path)})
    try:
        assert server.initialize(project, {"timeout": 600}) is not None
        assert wait_for_children(server.process.pid)
        small = (project / "small.py").as_uri()
        server.open(small, OLD.decode())
        assert server.diagnostics(small, 120) is not None  # the worker is warm
        memory = PeakMemory(server.process.pid)
        memory.start()
        # full: the biggest document the server reads (a longer message is refused unread)
        text = big_module(MAX_MESSAGE * 9 // 10 if FULL else 5 << 20)
        uri = (project / "big.py").as_uri()
        server.open(uri, text)
        assert len(server.diagnostics(uri, 600) or []) == text.count(CALL.decode())
        server.notify(
            "workspace/didChangeConfiguration", {"settings": {"tf24migrate": {"unsafe_fixes": True}}}
        )
        assert server.diagnostics(uri, 600) is not None
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 10**7, "character": 0}}
        number = server.request(
            "textDocument/codeAction",
            {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}},
        )
        answer = server.response(number, 600)
        assert answer is not None and answer.get("result"), answer
        grown = memory.stop()
    finally:
        server.close(30)
    assert grown <= FACTOR * len(text), f"{grown >> 20} MB for {len(text) >> 20} MB sent"
