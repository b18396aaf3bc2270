"""Torture cases of issue 46: the language server against a hostile client (`lsp_raw.py`), and the
command's new surfaces (the code cache in the user's cache folder, rare codecs on stdin, an
append-only folder, a lone surrogate). The outcomes are those of `test_torture.py`; for the server, a
"crash" is a traceback or an exit code LSP does not give, a "hang" a request unanswered or a
server (or its worker) that does not end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from cases_trust import ODD_CODECS, with_odd_bytes
from hostile_inputs import CALL, HEAD, OLD
from lsp_raw import RawServer, frame
from processes import children
from trial import Skip, check_stdin, check_write

ANSWER = 60  # seconds a request may wait
QUICK = (HEAD + CALL + b"\n").decode()


def _server(t, **environment) -> RawServer:
    env = {**os.environ, "TMPDIR": str(t.dir / "tmp"), **environment}
    env.pop("TF24MIGRATE_CACHE_DIR", None)
    (t.dir / "tmp").mkdir(exist_ok=True)
    (t.dir / ".git").mkdir(exist_ok=True)
    server = RawServer(t.dir, env=env, command=[t.options.tool, "server"])
    if server.initialize(t.dir, timeout=ANSWER) is None:
        t.fail("hang", "initialize unanswered")
    return server


def _ended(t, server: RawServer, expected: int) -> None:
    """The server ends with `expected`, its log one line an entry, its temporary folder empty."""
    code, stderr = server.close(ANSWER)
    if code is None:
        t.fail("hang", f"no end within {ANSWER} s")
    elif code != expected:
        t.fail("crash", f"exit code {code}, not {expected}")
    if "Traceback" in stderr or any(
        not line.startswith("tf24migrate server: ") for line in stderr.splitlines()
    ):
        t.fail("crash", f"not one line a log entry: {stderr.strip()[:160]!r}")
    left = os.listdir(t.dir / "tmp")
    if left:
        t.fail("other failure", f"left in the temporary folder: {left[:2]}")


def _findings(t, server: RawServer, uri: str, text: str = QUICK, expected=("TF24101",)) -> list:
    server.open(uri, text)
    shown = server.diagnostics(uri, ANSWER)
    if shown is None:
        t.fail("hang", f"no diagnostics for {uri}")
        return []
    if [d.get("code") for d in shown] != list(expected):
        t.fail("unclear message", f"{uri}: {[d.get('message', '')[:80] for d in shown]}")
    return shown


def _outliving(pids: list[int], seconds: float) -> list[int]:
    """Those of `pids` still running (not zombies) after up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        running = []
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    if handle.read().rsplit(") ", 1)[-1][:1] not in ("Z", "X"):
                        running.append(pid)
            except OSError:
                pass
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.2)


def theme_server(options):
    def garbage(t):
        server = _server(t)
        for body in (
            b"{bad",
            b"\xff\xfe",
            b"[1]",
            b"[" * 100_000,
            b'{"jsonrpc": "2.0", "id": {}, "method": "x"}',
        ):
            server.send_raw(frame(body))
            answer = server.response(None, ANSWER)
            if answer is None or "error" not in answer:
                t.fail("hang", f"no error answer to {body[:12]!r}")
        number = server.request("textDocument/codeAction", {"textDocument": 5})
        if (server.response(number, ANSWER) or {}).get("error", {}).get("code") != -32602:
            t.fail("other failure", "parameters of the wrong shape not answered InvalidParams")
        _findings(t, server, (t.dir / "after.py").as_uri())
        _ended(t, server, 1)

    yield "server-garbage-messages", 1, garbage

    def huge_header(t):
        server = _server(t)
        server.send_raw(b"Content-Length: 99999999999999\r\n\r\n")
        if server.response(None, ANSWER) is None:
            t.fail("hang", "no answer to a header of 100 TB")
        _ended(t, server, 1)

    yield "server-content-length-100tb", 1, huge_header

    def after_shutdown(t):
        server = _server(t)
        if (server.response(server.request("shutdown"), ANSWER) or {}).get("result", "x") is not None:
            t.fail("other failure", "shutdown not answered with null")
        for method in ("shutdown", "textDocument/hover"):
            answer = server.response(server.request(method, {}), ANSWER)
            if answer is None:
                t.fail("hang", f"{method} after shutdown unanswered")
        server.notify("exit")
        _ended(t, server, 0)

    yield "server-requests-after-shutdown", 1, after_shutdown

    def exit_alone(t):
        server = _server(t)
        server.notify("exit")
        _ended(t, server, 1)

    yield "server-exit-without-shutdown", 1, exit_alone

    def special_documents(t):
        os.mkfifo(t.dir / "pipe.py")
        server = _server(t)
        started = time.monotonic()
        for uri in ("file:///dev/zero", (t.dir / "pipe.py").as_uri(), "file:///%00x.py", "untitled:1"):
            _findings(t, server, uri)
        if time.monotonic() - started > 30:
            t.fail("hang", f"special files took {time.monotonic() - started:.0f} s")
        _ended(t, server, 1)

    yield "server-dev-zero-fifo-nul-untitled", 1, special_documents

    def timeouts(t):
        server = _server(t)
        for value in (1e300, float("inf"), -1, "10"):
            server.notify(
                "workspace/didChangeConfiguration", {"settings": {"tf24migrate": {"timeout": value}}}
            )
            _findings(t, server, (t.dir / f"t{len(str(value))}.py").as_uri())
        _ended(t, server, 1)

    yield "server-timeout-settings-that-overflow", 1, timeouts

    def ended_by(number: int, code: int | None, seconds: float):
        """The server ended by signal `number` (exiting `code`; None: killed): its workers end too."""

        def case(t):
            server = _server(t)
            _findings(t, server, (t.dir / "a.py").as_uri())
            workers = children(server.process.pid)
            server.process.send_signal(number)
            if code is None:
                server.close(10)
            else:
                _ended(t, server, code)
            if _outliving(workers, seconds):
                t.fail("hang", f"a worker outlived its server's {signal.Signals(number).name} by {seconds} s")

        return case

    yield "server-sigterm", 1, ended_by(signal.SIGTERM, 1, 10)
    yield "server-sigkill-orphan-worker", 1, ended_by(signal.SIGKILL, None, 30)

    def worker_killed(t):
        server = _server(t)
        _findings(t, server, (t.dir / "a.py").as_uri())
        for pid in children(server.process.pid):
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if b"resource_tracker" not in handle.read():
                    os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        _findings(t, server, (t.dir / "b.py").as_uri())  # a new worker, at once
        _ended(t, server, 1)

    yield "server-worker-killed", 1, worker_killed

    def gone_after_initialized(t):
        server = _server(t)
        _ended(t, server, 1)

    yield "server-client-gone-after-initialized", 1, gone_after_initialized

    def time_limit(t):
        server = _server(t)
        server.notify("workspace/didChangeConfiguration", {"settings": {"tf24migrate": {"timeout": 0.5}}})
        for name in ("a", "b"):
            _findings(t, server, (t.dir / f"{name}.py").as_uri())
        _ended(t, server, 1)

    yield "server-half-a-second-counts-the-migration-only", 1, time_limit

    def encodings(t):
        for encoding in ("utf-8", "utf-16", "utf-32"):
            env = {**os.environ, "TMPDIR": str(t.dir / "tmp")}
            (t.dir / "tmp").mkdir(exist_ok=True)
            server = RawServer(t.dir, env=env, command=[t.options.tool, "server"])
            number = server.request(
                "initialize",
                {
                    "processId": None,
                    "rootUri": t.dir.as_uri(),
                    "capabilities": {"general": {"positionEncodings": [encoding]}},
                },
            )
            server.response(number, ANSWER)
            server.notify("initialized", {})
            text = HEAD.decode() + "s = '😀é'; " + CALL.decode() + "\n"
            (shown,) = _findings(t, server, (t.dir / f"{encoding}.py").as_uri(), text) or [None]
            if shown is not None:
                prefix = "s = '😀é'; "
                want = {
                    "utf-8": len(prefix.encode()),
                    "utf-16": len(prefix.encode("utf-16-le")) // 2,
                    "utf-32": len(prefix),
                }
                if shown["range"]["start"]["character"] != want[encoding]:
                    t.fail("unclear message", f"{encoding}: the finding at {shown['range']['start']}")
            _ended(t, server, 1)

    yield "server-position-encodings", 1, encodings


def theme_round3(options):
    def fifo_code_cache(t):
        folder = t.dir / "xdg" / "tf24migrate"
        folder.mkdir(parents=True, mode=0o700)
        for name in ("engine", "command"):
            os.mkfifo(folder / f"dataclass-code-{name}.{sys.implementation.cache_tag}.bin", 0o600)
        t.write("src/train.py", OLD)
        env = {**os.environ, "XDG_CACHE_HOME": str(t.dir / "xdg")}
        try:
            done = subprocess.run(
                [t.options.tool, "--check", "--no-cache", "src"],
                cwd=t.dir,
                env=env,
                capture_output=True,
                timeout=60,
            )
        except subprocess.TimeoutExpired:
            t.fail("hang", "a FIFO in the code cache blocked --check")
            return
        if done.returncode != 1 or b"TF24101" not in done.stdout:
            t.fail("other failure", f"exit {done.returncode}: {done.stderr[-120:]!r}")

    yield "cache-fifo-in-the-user-cache", 2, fifo_code_cache

    def relative_xdg(t):
        t.write("train.py", OLD)
        env = {**os.environ, "XDG_CACHE_HOME": "relative-cache", "HOME": str(t.dir / "home")}
        subprocess.run(
            [t.options.tool, "--check", "--no-cache", "train.py"],
            cwd=t.dir,
            env=env,
            capture_output=True,
            timeout=120,
        )
        if (t.dir / "relative-cache").exists():
            t.fail("other failure", "a cache folder made inside the project for a relative XDG_CACHE_HOME")

    yield "cache-relative-xdg-cache-home", 2, relative_xdg

    def stdin_codec(encoding):
        def case(t):
            check_stdin(t, with_odd_bytes(encoding), codes=(0,))

        return case

    for encoding in ODD_CODECS:
        yield f"stdin-codec-{encoding}", 3, stdin_codec(encoding)

    def append_only(t):
        t.write("log/train.py", OLD)
        if subprocess.run(["chattr", "+a", str(t.dir / "log")], capture_output=True).returncode != 0:
            raise Skip("chattr +a not allowed here")
        try:
            check_write(
                t, {}, args=("--write", "--no-cache", "log"), codes=(2,), expected={}, says=("append-only",)
            )
        finally:
            subprocess.run(["chattr", "-a", str(t.dir / "log")])

    yield "write-append-only-folder", 4, append_only

    def lone_surrogate(t):
        data = b"# -*- coding: unicode_escape -*-\n" + HEAD + b"# \\ud800\n" + CALL + b"\n"
        check_write(
            t,
            {"train.py": data},
            args=("--write", "--no-cache", "."),
            codes=(2,),
            expected={},
            says=("lone surrogate",),
            not_says=("nesting",),
        )

    yield "message-lone-surrogate", 4, lone_surrogate
