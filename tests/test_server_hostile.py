"""`tf24migrate server` against a client that no editor would be: bytes that are not JSON, not
UTF-8, not an object; parameters of the wrong shape; a header that announces 100 TB; requests after
`shutdown`; `exit` without it; a client that goes away; SIGTERM; documents named after `/dev/zero`
or a FIFO; time limits that overflow a clock, or that a worker's start-up would spend. Each test
starts a real server (`tests/lsp_raw.py` speaks to it byte by byte) and checks what it answers,
what it logs (one line an entry, never a traceback) and how it ends."""

from __future__ import annotations

import math
import os
import signal
import time
from pathlib import Path

import pytest
from hostile_inputs import CALL, DEEP, HEAD
from lsp_raw import RawServer, frame
from processes import all_ended, children, wait_for_children

QUICK = (HEAD + CALL).decode()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    return folder


def assert_one_line_log(stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    for line in stderr.splitlines():
        assert line.startswith("tf24migrate server: "), stderr


def codes(diagnostics: list | None) -> list:
    assert diagnostics is not None, "no diagnostics"
    return [d.get("code") for d in diagnostics]


def _action(uri: str) -> dict:
    """The parameters of a code action at the start of `uri`."""
    return {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": []},
    }


def test_bad_messages_each_get_an_error_and_every_request_an_answer(project: Path):
    server = RawServer(project)
    assert server.initialize(project) is not None
    for body, number, code, words in (
        (b"{bad json", None, -32700, "not JSON"),
        (b"\xff\xfe{}", None, -32700, "not UTF-8"),
        (b"[1, 2]", None, -32600, "a JSON list"),
        (b'{"id": 7, "method": "shutdown"}', 7, -32600, "not a JSON-RPC 2.0 object"),
        (b'{"jsonrpc": "2.0", "id": {}, "method": "shutdown"}', None, -32600, "id must be"),
        (b"[" * 100000, None, -32700, "not JSON"),
    ):
        server.send_raw(frame(body))
        answer = server.response(number, 10)
        assert answer is not None and answer["error"]["code"] == code, (body[:20], answer)
        assert words in answer["error"]["message"]
    server.send_raw(b"Content-Length: twelve\r\n\r\n")
    assert server.response(None, 10)["error"]["code"] == -32600
    number = server.request("textDocument/codeAction", {"textDocument": 5})
    answer = server.response(number, 10)
    assert answer is not None and answer["error"]["code"] == -32602
    server.notify("textDocument/didOpen", {"textDocument": "not a document"})  # logged, not answered
    server.notify(  # a notebook never opened: logged, not an "Error in server" shown
        "notebookDocument/didChange",
        {"notebookDocument": {"uri": (project / "nb.ipynb").as_uri(), "version": 2}, "change": {}},
    )
    uri = (project / "quick.py").as_uri()
    server.open(uri, QUICK)
    assert codes(server.diagnostics(uri)) == ["TF24101"]  # it still serves
    assert server.response(server.request("shutdown"), 10)["result"] is None
    for method, params in (("textDocument/codeAction", _action(uri)), ("shutdown", None)):
        answer = server.response(server.request(method, params), 10)
        assert answer is not None and answer["error"]["code"] == -32600, (method, answer)
    server.send_raw(b"Content-Length: 99999999999999\r\n\r\n")  # answered at once, never read
    answer = server.response(None, 10)
    assert answer is not None and "over the limit" in answer["error"]["message"]
    server.send_raw(b"x" * 100000)
    assert server.process.poll() is None
    returncode, stderr = server.close()
    assert returncode == 0  # shut down, then its input ended
    assert_one_line_log(stderr)
    assert "didOpen" in stderr and "nb.ipynb, which is not open" in stderr  # what it could not use, said
    assert [m for m in server.kept if m.get("method") == "window/showMessage"] == []
    assert server.unframed == b""


def test_before_initialize_requests_are_refused_and_exit_without_shutdown_ends_with_code_1(project: Path):
    server = RawServer(project)
    early = (project / "early.py").as_uri()
    server.open(early, QUICK)  # dropped, as LSP says
    answer = server.response(server.request("textDocument/codeAction", _action(early)), 30)
    assert answer is not None and answer["error"]["code"] == -32002, answer
    assert server.initialize(project) is not None
    server.notify("exit")
    assert server.process.wait(30) == 1
    assert_one_line_log(server.close()[1])


def test_a_client_gone_after_initialized_ends_it_quietly(project: Path):
    server = RawServer(project)
    server.request("initialize", {"processId": None, "rootUri": project.as_uri(), "capabilities": {}})
    server.notify("initialized", {})
    returncode, stderr = server.close(30)
    assert returncode == 1
    assert_one_line_log(stderr)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the worker through /proc")
def test_sigterm_ends_the_worker_and_removes_the_temporary_folder(project: Path, tmp_path: Path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    server = RawServer(project, env={**os.environ, "TMPDIR": str(temporary)})
    assert server.initialize(project) is not None
    uri = (project / "quick.py").as_uri()
    server.open(uri, QUICK)
    assert codes(server.diagnostics(uri)) == ["TF24101"]
    assert [path.name for path in temporary.iterdir()] != []  # the rules' pages
    workers = children(server.process.pid)
    assert workers
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(30) == 1
    assert list(temporary.iterdir()) == []
    assert all_ended(workers)  # the worker, and multiprocessing's resource tracker, end with it
    assert_one_line_log(server.close()[1])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the worker through /proc")
def test_sigterm_while_the_server_loads_ends_it_as_exit_does(project: Path, tmp_path: Path):
    """A SIGTERM as soon as the worker is started, while the server still loads pygls (an editor
    that gives up at once): the server ends with exit's code 1, not killed by the signal, and
    leaves neither its worker nor a temporary folder behind."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    server = RawServer(project, env={**os.environ, "TMPDIR": str(temporary)})
    workers = wait_for_children(server.process.pid)  # started first thing, before pygls loads
    assert workers
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(30) == 1
    assert all_ended(workers)
    assert list(temporary.iterdir()) == []
    assert_one_line_log(server.close()[1])


def test_sigterm_handled_from_the_first_of_the_servers_code(project: Path, tmp_path: Path):
    """The server handles SIGTERM from the moment its package's code first runs (`tf24migrate.cli`,
    imported first), not once the command's options are parsed 30-80 ms later: a SIGTERM as soon
    as `tf24migrate.cli` is imported (Python's `-X importtime` says so on stderr) ends it with
    exit's code 1, where it was killed by the signal (-15). Only while Python itself starts is
    SIGTERM the default's (the server fuzzer accepts that when nothing is left behind)."""
    import subprocess
    import sys

    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "tf24migrate", "server"],
        cwd=project,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert process.stderr is not None
    try:
        for line in process.stderr:  # each module's line once it is imported, nested ones first
            if line.split(b"|")[-1].strip() == b"tf24migrate.cli":
                process.send_signal(signal.SIGTERM)
                break
        else:
            pytest.fail("no tf24migrate.cli among the modules imported")
        process.stderr.read()  # (a SIGTERM lost: the input stays open, and this waits 30 s)
        assert process.wait(30) == 1
    finally:
        process.kill()
        process.wait()
    assert list(temporary.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_special_files_and_clock_overflows(project: Path):
    os.mkfifo(project / "pipe.py")
    server = RawServer(project)
    assert server.initialize(project, {"timeout": math.inf}) is not None
    warning = server.wait(lambda m: m.get("method") == "window/showMessage", 10)
    assert warning is not None and "`timeout` must be a number of seconds" in warning["params"]["message"]
    server.notify("workspace/didChangeConfiguration", {"settings": {"tf24migrate": {"timeout": 1e300}}})
    started = time.monotonic()
    for uri in ("file:///dev/zero", (project / "pipe.py").as_uri(), "file:///%00x.py"):
        server.open(uri, QUICK)
        assert codes(server.diagnostics(uri)) == ["TF24101"], uri
    assert time.monotonic() - started < 10  # the editor's texts, not a read that never ends
    broken = (project / "broken.py").as_uri()
    server.open(broken, QUICK + "def f(:\n")
    (failure,) = server.diagnostics(broken)
    assert failure["code"] == "TF24005" and "cannot parse" in failure["message"]
    assert server.response(server.request("shutdown"), 10)["result"] is None
    server.notify("exit")
    returncode, stderr = server.close()
    assert returncode == 0
    assert_one_line_log(stderr)


def test_the_time_limit_counts_the_migration_only(project: Path):
    """With half a second, the first document is checked (the worker's start-up is not counted),
    and after a migration over the limit the next change finds a warm worker."""
    server = RawServer(project)
    assert server.initialize(project, {"timeout": 0.5}) is not None
    quick = (project / "quick.py").as_uri()
    server.open(quick, QUICK)
    assert codes(server.diagnostics(quick)) == ["TF24101"]
    slow = (project / "slow.py").as_uri()
    server.open(slow, (HEAD + DEEP["dict-100000"][0] + b"\n" + CALL + b"\n").decode())
    (late,) = server.diagnostics(slow)
    assert "took longer than 0.5 s" in late["message"]
    again = (project / "again.py").as_uri()
    server.open(again, QUICK)
    assert codes(server.diagnostics(again)) == ["TF24101"]
    returncode, stderr = server.close()
    assert returncode == 1  # its input ended without `shutdown`
    assert_one_line_log(stderr)


def test_a_change_sent_on_seeing_the_diagnostics_is_checked(project: Path):
    """An editor's loop, as fast as it goes: change, wait for that version's diagnostics, change
    again. The change comes while the check that published is ending: it must start a check of its
    own, not be taken for part of that one (which would lose it)."""
    server = RawServer(project)
    assert server.initialize(project) is not None
    uri = (project / "typing.py").as_uri()
    server.open(uri, "import tensorflow as tf\n" + "strategy.experimental_run_v2(step)\n" * 41)
    assert server.diagnostics(uri) is not None
    for version in range(2, 40):
        start = {"line": 0, "character": 0}
        change = {"range": {"start": start, "end": start}, "text": f"# edit {version}\n"}
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        published = server.wait(
            lambda m, v=version: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == v
            ),
            30,
        )
        assert published is not None, f"version {version}: its diagnostics never came"
        assert len(published["params"]["diagnostics"]) == 41
    assert server.close()[0] == 1


def test_the_edits_of_a_big_document_do_not_hold_its_lines_twice_over():
    """The edits of "fix all" on a 1 MB module with a fix every 50 lines: right, for every kind
    of line end, and made without a list of the old and of the new lines (9x the text before)."""
    import tracemalloc

    from tf24migrate.server.documents import Lines

    block = (
        "".join(f"def f{n}(x):\r\n    return [x, {n}]\r" for n in range(25)) + "s.experimental_run_v2(f)\n"
    )
    old = block * (1_000_000 // len(block))
    new = old.replace("experimental_run_v2", "run")
    lines = Lines(old)
    tracemalloc.start()
    try:
        edits = lines.edits_to(new.encode())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(edits) == old.count("experimental_run_v2")
    assert _applied(lines, edits) == new
    assert peak < 5 * len(old), peak / len(old)


def test_a_worker_that_cannot_load_the_engine_says_so_on_one_line(project: Path, tmp_path: Path):
    """A broken install (here, a `libcst` that fails to import, first on the path: the server
    itself does not load it, its worker does): the log says so in one line, never with the
    worker's traceback; the document is still answered, with one diagnostic."""
    broken = tmp_path / "broken"
    (broken / "libcst").mkdir(parents=True)
    (broken / "libcst" / "__init__.py").write_text("raise ImportError('a broken install')\n")
    path = os.pathsep.join([str(broken), *filter(None, [os.environ.get("PYTHONPATH")])])
    server = RawServer(project, env={**os.environ, "PYTHONPATH": path})
    assert server.initialize(project) is not None
    uri = (project / "quick.py").as_uri()
    server.open(uri, QUICK)
    (shown,) = server.diagnostics(uri)
    assert "a broken install" in shown["message"]
    returncode, stderr = server.close()
    assert returncode == 1
    assert_one_line_log(stderr)
    assert "the worker cannot load the engine (ImportError: a broken install)" in stderr


def test_a_code_action_over_many_findings_reads_the_strings_of_its_text_once(monkeypatch):
    """Found by the server's fuzzer (`stress/test_fuzz_server.py`, seed 3251369457): a code action over a 5 MB module with
    236 findings tokenized the whole module once per finding's suppression, holding the server's
    loop (and its SIGTERM) for minutes. The lines inside strings are read once per text."""
    import tokenize

    from lsprotocol import types

    from tf24migrate.model.findings import Finding, Severity
    from tf24migrate.server import actions
    from tf24migrate.server.documents import Lines

    text = "".join(f"s{n}.experimental_run_v2(f)\nx = '''\ntext {n}'''\n" for n in range(50))
    lines = Lines(text)
    tokenized = []
    real = tokenize.generate_tokens
    monkeypatch.setattr(tokenize, "generate_tokens", lambda readline: tokenized.append(1) or real(readline))
    actions._INSIDE.clear()
    shown = types.Diagnostic(
        range=types.Range(start=types.Position(0, 0), end=types.Position(0, 1)), message="m"
    )
    made = [
        actions.suppress(
            Finding(
                code="TF24101",
                name="n",
                line=3 * n + 2,
                column=1,
                end_line=3 * n + 3,
                end_column=5,
                message="m",
                severity=Severity.ERROR,
                fix=None,
                applied=False,
            ),
            shown,
            "file:///m.py",
            lines,
        )
        for n in range(50)
    ]
    assert len(tokenized) == 1
    # each finding's first line ends inside a string: the comment goes on its last line
    assert [action.edit.changes["file:///m.py"][0].range.start.line for action in made] == [
        3 * n + 2 for n in range(50)
    ]


def test_a_job_the_starting_worker_had_not_taken_at_shutdown_is_not_an_internal_error():
    """Found by the server's fuzzer (seed 4150217370, at a busy moment): `shutdown` while the
    worker still loaded the engine, a document's job sent to it, made that document's diagnostic
    "internal error: the worker process ended before it took the file; please report it"."""
    import asyncio

    from tf24migrate.server.settings import EditorSettings
    from tf24migrate.server.worker import Job, Worker

    async def shut_down_while_it_starts():
        worker = Worker()
        worker.start()
        checked = asyncio.ensure_future(worker.run(Job("/m.py", QUICK, EditorSettings(), 0)))
        await asyncio.sleep(0.1)  # the job is sent; the worker loads the engine (a second or more)
        worker.close()
        return await checked

    outcome = asyncio.run(shut_down_while_it_starts())
    assert outcome.failure == "not checked: the server is shutting down"


def test_a_text_the_worker_leaves_as_it_is_is_not_sent_back():
    """An outcome keeps the document's own text, not a copy of it made by the worker: the server
    holds a big document once while it is open (a 5 MB one took 5 to 20 MB more, by its widest
    character); a text the worker changes comes back as the new text, kept as UTF-8 (half or a
    quarter of a text beyond Latin-1 held as a string), lone surrogates and all."""
    import asyncio

    from tf24migrate.server.settings import EditorSettings
    from tf24migrate.server.worker import Job, Worker

    plain = "import tensorflow as tf\nx = tf.constant(1)  # é\n" * 3
    due = "import tensorflow as tf\nstrategy.experimental_run_v2(fn)  # λ 😀\n"
    lone = due.replace("λ", "\ud800")  # sent as it is: its check names it

    async def check_all():
        worker = Worker()
        try:
            return [await worker.run(Job("/m.py", text, EditorSettings(), 0)) for text in (plain, due, lone)]
        finally:
            worker.close()

    left, changed, refused = asyncio.run(check_all())
    assert left.failure is None and left.code is plain
    assert changed.code is None and changed.encoded is not None
    assert changed.migrated() == due.replace("experimental_run_v2", "run")
    assert "U+D800" in (refused.failure or "") and "line 2" in (refused.failure or "")


def test_a_fix_in_a_long_line_is_an_edit_of_what_changed(monkeypatch):
    """A fix in a 28 MB line made the code action's answer 58 MB (the line, twice) and cost the
    server 100 MB: an edit longer than `LONG_EDIT` covers only what changed. The edits still
    turn the text into the new one, whatever the line ends, never splitting a `\\r\\n`."""
    import random

    from tf24migrate.server import documents
    from tf24migrate.server.documents import Lines

    old = "import tensorflow as tf\r\nx = '" + "a" * 200_000 + "'; s.experimental_run_v2(f)\r\ny = 1\r\n"
    lines = Lines(old)
    (edit,) = lines.edits_to(old.replace("experimental_run_v2", "run").encode())
    assert edit.new_text == "run"
    assert (edit.range.start.line, edit.range.start.character) == (1, 200_010)
    assert (edit.range.end.line, edit.range.end.character) == (1, 200_029)
    monkeypatch.setattr(documents, "LONG_EDIT", 0)  # every edit cut to what changed
    rng = random.Random(46)
    for _ in range(2000):
        old, new = ("".join(rng.choices("ab\n\rλ😀\u2028\x0c", k=rng.randrange(20))) for _ in range(2))
        lines = Lines(old)
        assert _applied(lines, lines.edits_to(new.encode())) == new, (old, new)


def _applied(lines, edits) -> str:
    """The text of `lines` with `edits` applied, from the last (each one's offsets still hold)."""
    data = lines.data
    for edit in reversed(edits):
        start, end = lines.offset(edit.range.start), lines.offset(edit.range.end)
        data = data[:start] + edit.new_text.encode() + data[end:]
    return data.decode()
