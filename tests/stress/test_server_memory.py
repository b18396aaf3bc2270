"""The language server's memory on a big module: the server and its worker together grow by at
most `FACTOR` times the bytes of the text the editor sent, through a check, a check again with
another configuration, a code action over the whole file and a line typed (issue 46: 13.5-20x
before the document's line starts were an array of machine ints, tokenizing stopped copying the
text into an `io.StringIO`, and glibc kept big blocks apart, `server.heap`).

A module holding one character beyond Latin-1 is held at 2 bytes a character (an emoji's: 4) in
each process: there it was 13.7x through the code action and 17.7x once a line was typed, until
the texts went to and from the worker as UTF-8 (pickled, a string keeps its UTF-8 form too), the
server kept the migrated text as UTF-8, the worker stopped making the text's bytes, dropped the
last job's text when done and lower-cased smaller pieces (`suppressions._marked`), and the server
dropped a stale result's texts and the text before a change: 8.4x (5.8x for a Latin-1 module;
an emoji's, 30x before, 14.5x, of which 8x is the text itself in the two processes).

Then the server held its documents as UTF-8 (`server.documents`), the worker let go of the
pruning plan and restored the left-out statements in place before the code was made, and forgot
the engine's last text before encoding the migrated one: 7.4x, 5.2x, and 10.5-11x for a module
with an emoji (53-55 MB for 5 MB), of which 8x were the job's text and the migrated one in the
worker, both `str` at 4 bytes a character. The worker now migrates such a big text with stand-ins
of 2 bytes a character for its emoji (`server.narrowing`): 7.4x, as with a "λ"."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_inputs import CALL, OLD, big_module
from knobs import FULL
from lsp_raw import RawServer
from processes import PeakMemory, wait_for_children

from tf24migrate.server.wire import MAX_MESSAGE

FACTOR = 10


@pytest.mark.parametrize(
    "character", ["", "λ", "😀"], ids=["latin-1", "beyond-latin-1", "beyond-the-basic-multilingual-plane"]
)
def test_a_big_module_costs_the_server_at_most_ten_times_its_size(tmp_path: Path, character: str):
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
        if character:  # the whole text is then held as `str` at 2 bytes a character (an emoji's: 4)
            text = text.replace("\n", f"\n# {character}\n", 1)
        sent = len(text.encode("utf-8"))
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
        line = {"line": 2, "character": 0}
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"range": {"start": line, "end": line}, "text": "x = 1\n"}],
            },
        )
        assert server.diagnostics(uri, 600) is not None
        grown = memory.stop()
    finally:
        server.close(30)
    assert grown <= FACTOR * sent, f"{grown / sent:.1f}x: {grown >> 20} MB for {sent >> 20} MB sent"
