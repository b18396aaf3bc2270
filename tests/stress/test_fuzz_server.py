"""A fuzzing client for `tf24migrate server`: random sessions over JSON-RPC (`lsp_raw.py`), each
a fresh server in a fresh project, sending what an editor sends and what none would: documents in
odd texts (lone surrogates, line separators, deep nesting, a long line, a 5 MB file), named after
`/dev/zero`, a FIFO, a missing file or no file at all; changes with ranges out of bounds; notebooks
whose cells do not match their documents; code actions anywhere; settings of any type; the client's
position encodings; bytes that are not JSON, not UTF-8, not an object, headers that lie; requests
after `shutdown`; the worker killed; the client gone; SIGTERM; SIGKILL of the server.

Run: `python -m pytest tests/stress/test_fuzz_server.py -s`, for `TF24MIGRATE_STRESS_MINUTES`
(`knobs.py`).

Judged, per session (the outcomes of `test_torture.py`, for a server):
- hang: a request unanswered in `ANSWER` s, or no end within `END` s of `exit`, the input's end,
  SIGTERM; a worker left running 10 s after its server was killed (an orphan);
- traceback: "Traceback" on stderr, a line there that is not one log entry ("tf24migrate server:
  ..."), an exit code other than the one LSP gives (0 after `shutdown`, else 1), death
  by a signal nobody sent, death by SIGTERM (-15) once the server's code ran (a worker started,
  a temporary file, output on stderr: before, while Python starts, it is POSIX's default); "internal error" or "please report" in a diagnostic or a message;
- write outside: a file of the project or beside it changed, created or removed, or a temporary
  folder left behind;
- misleading message: "took longer than" for a text of less than 64 KB under the default time
  limit, "nesting too deep" for a text without deep nesting, an error answer to a well-formed
  request, a diagnostic whose range ends before it starts, output that is not LSP's framing;
- memory: in the sessions that open a 5 MB document once the worker is warm, the server's and its
  worker's resident memory (`processes.PeakMemory`) grown by more than `MEMORY_FACTOR` times the
  bytes of the documents sent.
Each finding is logged once per kind and first line (to `fuzz-server.log` in the test's folder, or
`TF24MIGRATE_STRESS_LOG`) with the session's seed: `TF24MIGRATE_STRESS_SEED=N
TF24MIGRATE_STRESS_SESSIONS=1` runs it again. A progress line every 20 sessions; the test fails if
anything was found.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from hostile_inputs import big_module
from knobs import LOG, MINUTES, SEED, SESSIONS
from lsp_raw import RawServer, frame
from processes import PeakMemory, alive, children

ANSWER = 90.0  # seconds a request may wait for its answer (a check of a big text first)
END = 30.0  # seconds the server may take to end
MEMORY_FACTOR = 10  # a big document with an emoji too (its peak shown on its own)
BIG = 5 * 1024 * 1024  # bytes of the big document some sessions open
KINDS = ("hang", "traceback", "internal error", "write outside", "misleading message", "memory")

HEAD = "import tensorflow as tf\n"
CALL = "strategy.experimental_run_v2(step)\n"
ODD_CHARACTERS = [
    "\u2028",
    "\x0c",
    "\x1c",
    "\x85",
    "\r",
    "\r\n",
    "\ud800",
    "\udfff",
    "😀",
    "\u202e",
    "\x00",
    "é",
]


def _text(rng: random.Random) -> str:
    """A document's text: calls due a fix, with odd characters, lines and nesting."""
    kind = rng.randrange(10)
    if kind == 0:
        return ""
    if kind == 1:
        return (
            HEAD
            + "x = "
            + "(" * rng.choice([50, 120, 1000])
            + "1"
            + ")" * rng.choice([0, 50, 120, 1000])
            + "\n"
            + CALL
        )
    if kind == 2:
        return HEAD + "x = '" + "a" * rng.choice([10_000, 200_000]) + "'; " + CALL
    if kind == 3:
        return HEAD + "def f(:\n" + CALL
    parts = [HEAD]
    for _ in range(rng.randrange(1, 12)):
        choice = rng.randrange(5)
        if choice == 0:
            parts.append(CALL)
        elif choice == 1:
            parts.append(f"# {''.join(rng.choices(ODD_CHARACTERS, k=rng.randrange(1, 5)))}\n")
        elif choice == 2:
            parts.append(f"s = '{rng.choice(ODD_CHARACTERS)}'; {CALL}")
        elif choice == 3:
            parts.append("hints = tf.distribute.experimental.CollectiveHints(bytes_per_pack=0)\n")
        else:
            parts.append("".join(rng.choices("abc =()[]{}:\n\t#'\"\\", k=rng.randrange(1, 30))))
    return "".join(parts)


def _deep(text: str) -> bool:
    depth = deepest = 0
    for character in text:
        if character in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in ")]}":
            depth = max(depth - 1, 0)
    return deepest > 90


def _position(rng: random.Random) -> dict:
    return {"line": rng.choice([0, 0, 1, 2, 5, 10**6, -1]), "character": rng.choice([0, 1, 3, 40, 10**6, -5])}


def _range(rng: random.Random) -> dict:
    return {"start": _position(rng), "end": _position(rng)}


def _setting(rng: random.Random) -> object:
    return rng.choice(
        [
            None,
            {},
            {"timeout": rng.choice([1e300, float("inf"), -1, 0, "10", True, 0.05, 30, None])},
            {"select": rng.choice([["TF24101"], "TF24101,TF999", 3, ["\u202e"], []])},
            {"ignore": "ALL"},
            {"targetVersion": rng.choice(["2.3", "2.0", "x", 2.3, "2." + "9" * 40])},
            {"unsafe_fixes": rng.choice([True, "yes"])},
            {"unknown": 1},
            [1, 2],
            "text",
        ]
    )


def snapshot(root: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            if os.path.islink(path):
                found[relative] = "link:" + os.readlink(path)
            elif os.path.isfile(path):
                with open(path, "rb") as handle:
                    found[relative] = handle.read()
            else:
                found[relative] = "folder" if os.path.isdir(path) else "special"
    return found


class Judge:
    def __init__(self, log: Path) -> None:
        self.log = log
        self.seen: set[str] = set()
        self.sessions = 0
        self.messages = 0
        self.findings: dict[str, int] = {}
        self.peak_ratio = 0.0  # the highest (peak - baseline) / bytes sent of a big session
        self.peak_bytes = 0
        self.peak_ratio_beyond = 0.0  # the same, of the big sessions whose document has an emoji
        self.big_sessions = [0, 0]  # without an emoji, with one

    def report(self, kind: str, detail: str, seed: int) -> None:
        signature = f"{kind}: {detail.splitlines()[0][:160] if detail else ''}"
        self.findings[kind] = self.findings.get(kind, 0) + 1
        if signature in self.seen:
            return
        self.seen.add(signature)
        line = f"{time.strftime('%H:%M:%S')} {signature}\n    rerun: --seed {seed} --sessions 1\n"
        with open(self.log, "a") as handle:
            handle.write(line)
        print(line, end="", flush=True)


class Session:
    """One server, one project, one random sequence of messages."""

    def __init__(self, seed: int, judge: Judge, base: Path) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.judge = judge
        self.folder = Path(tempfile.mkdtemp(prefix="fuzz-server-", dir=base))
        self.project = self.folder / "project"
        self.outside = self.folder / "outside"
        self.temporary = self.folder / "tmp"
        self.cache = self.folder / "cache"
        self.open: dict[str, str] = {}  # uri: text
        self.sent = 0  # bytes of the documents sent
        self.shut_down = False
        self.initialized = False
        self.exited = False
        self.signalled = False  # SIGTERM or SIGKILL sent to the server
        self.worker_killed = False
        self.timeout_set = False
        self.big = self.rng.random() < 0.08  # opens a 5 MB document first, its memory measured
        self.grown = 0  # bytes the server and its worker grew by (a big session)
        # a server SIGTERM ended by its default (exit -15): the processes it had started then
        self.killed_starting: list[int] | None = None

    def report(self, kind: str, detail: str) -> None:
        self.judge.report(kind, detail, self.seed)

    def build(self) -> None:
        (self.project / ".git").mkdir(parents=True)
        (self.project / "sub").mkdir()
        (self.project / "train.py").write_text(HEAD + CALL)
        (self.project / "sub" / "model.py").write_text(HEAD + CALL * 3)
        (self.project / "pyproject.toml").write_text('[tool.tf24migrate]\ntarget-version = "2.3"\n')
        os.mkfifo(self.project / "pipe.py")
        self.outside.mkdir()
        (self.outside / "secret.py").write_text(HEAD + CALL)
        (self.project / "link.py").symlink_to(self.outside / "secret.py")
        self.temporary.mkdir()
        self.cache.mkdir()

    def uri(self) -> str:
        rng = self.rng
        name = rng.choice(
            [
                "train.py",
                "sub/model.py",
                "new.py",
                "pipe.py",
                "link.py",
                "x y.py",
                "é.py",
                "a.c",
                "b.pyi",
                "n.ipynb",
            ]
        )
        return rng.choice(
            [
                (self.project / name).as_uri(),
                (self.project / name).as_uri(),
                "file:///dev/zero",
                "file:///dev/null",
                "untitled:Untitled-1",
                "file://",
                "file:///%00x.py",
                "http://example.invalid/x.py",
                "",
            ]
        )

    def run(self) -> None:
        self.build()
        before = snapshot(self.project), snapshot(self.outside)
        environment = {**os.environ, "TMPDIR": str(self.temporary), "XDG_CACHE_HOME": str(self.cache)}
        environment.pop("TF24MIGRATE_CACHE_DIR", None)
        self.server = RawServer(self.project, env=environment)
        self.memory: PeakMemory | None = None  # a big session's, once the worker is warm
        self.beyond_the_plane = False  # whether its big document has an emoji
        try:
            self._session()
            self._end()
        finally:
            if self.memory is not None:
                self.grown = self.memory.stop()
            if self.server.process.poll() is None:
                self.server.process.kill()
            self.server.close(5)
        self._judge_output(before)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _request(self, method: str, params: object, well_formed: bool = True) -> dict | None:
        number = self.server.request(method, params)
        answer = self.server.response(number, ANSWER)
        self.judge.messages += 1
        if answer is None:
            if self.server.process.poll() is None:
                self.report("hang", f"{method} unanswered in {ANSWER:.0f} s")
            return None
        error = answer.get("error")
        if error and well_formed and self.initialized and not self.shut_down and not self.worker_killed:
            self.report("misleading message", f"{method} answered with an error: {error.get('message')}")
        if self.shut_down and not error:
            self.report("misleading message", f"{method} after shutdown answered without an error")
        return answer

    def _shutdown(self) -> None:
        answer = self._request("shutdown", None, well_formed=not self.shut_down)
        self.shut_down = self.shut_down or (answer is not None and "result" in answer)

    def _notify(self, method: str, params: object) -> None:
        self.judge.messages += 1
        self.server.notify(method, params)

    def _session(self) -> None:
        rng = self.rng
        if rng.random() < 0.9:
            capabilities: dict = {}
            if rng.random() < 0.5:
                capabilities["general"] = {
                    "positionEncodings": rng.sample(["utf-8", "utf-16", "utf-32"], rng.randrange(1, 4))
                }
            if rng.random() < 0.5:
                capabilities["notebookDocument"] = {"synchronization": {}}
            options = _setting(rng)
            self.timeout_set = isinstance(options, dict) and "timeout" in options
            self.initialized = True
            self._request(
                "initialize",
                {
                    "processId": None,
                    "rootUri": self.project.as_uri(),
                    "capabilities": capabilities,
                    "initializationOptions": options,
                },
            )
            self._notify("initialized", {})
        if self.big and self.initialized:
            self._big_document()
        for _ in range(rng.randrange(3, 30)):
            if self.server.process.poll() is not None or self.exited:
                return
            self._action()
            if rng.random() < 0.3:
                time.sleep(rng.random() * 0.5)

    def _big_document(self) -> None:
        """Once the worker is warm (the memory measured then), a 5 MB module (a call due a fix
        every 500 functions), with time to be checked whole; in a third of the sessions with one
        character beyond the Basic Multilingual Plane (an emoji, in a comment), so that Python
        holds every character of it at 4 bytes (`test_server_memory.py`)."""
        pid = self.server.process.pid
        for _ in range(100):
            if children(pid):
                break
            time.sleep(0.1)
        time.sleep(3)
        self.memory = PeakMemory(pid)
        self.memory.start()
        self._notify("workspace/didChangeConfiguration", {"settings": {"tf24migrate": {"timeout": 300}}})
        self.timeout_set = True
        uri = (self.project / "big.py").as_uri()
        text = big_module(BIG)
        if self.rng.random() < 1 / 3:
            text = text.replace("\n", "\n# 😀\n", 1)
            self.beyond_the_plane = True
        self.open[uri] = text
        self.sent += len(text.encode("utf-8"))
        self._notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
        )
        if self.server.diagnostics(uri, ANSWER) is None:
            self.report("hang", "no diagnostics for a 5 MB document")

    def _action(self) -> None:
        rng = self.rng
        choice = rng.randrange(22)
        if choice <= 4:
            uri, text = self.uri(), _text(rng)
            self.open[uri] = text
            self.sent += len(text.encode("utf-8", "surrogatepass"))
            language = rng.choice(["python", "python", "c", "plaintext", ""])
            self._notify(
                "textDocument/didOpen",
                {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}},
            )
        elif choice <= 7 and self.open:
            uri = rng.choice(list(self.open))
            text = _text(rng)
            self.sent += len(text.encode("utf-8", "surrogatepass"))
            change = {"text": text} if rng.random() < 0.5 else {"range": _range(rng), "text": text[:50]}
            self._notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": rng.choice([2, 2, -1, 10**12])},
                    "contentChanges": [change],
                },
            )
        elif choice <= 10:
            uri = rng.choice(list(self.open) or [self.uri()])
            params = {"textDocument": {"uri": uri}, "range": _range(rng), "context": {"diagnostics": []}}
            if rng.random() < 0.3:
                params["context"]["only"] = [rng.choice(["quickfix", "source.fixAll", "source", "refactor"])]
            valid = all(p["line"] >= 0 and p["character"] >= 0 for p in params["range"].values())
            self._request("textDocument/codeAction", params, well_formed=valid)
        elif choice == 11 and self.open:
            uri = rng.choice(list(self.open))
            self._notify(
                rng.choice(["textDocument/didSave", "textDocument/didClose"]), {"textDocument": {"uri": uri}}
            )
            self.open.pop(uri, None)
        elif choice == 12:
            self._notebook()
        elif choice == 13:
            setting = _setting(rng)
            self.timeout_set = self.timeout_set or (isinstance(setting, dict) and "timeout" in setting)
            self._notify("workspace/didChangeConfiguration", {"settings": {"tf24migrate": setting}})
        elif choice == 14:
            self._notify(
                "workspace/didChangeWatchedFiles",
                {"changes": [{"uri": (self.project / "pyproject.toml").as_uri(), "type": 2}]},
            )
        elif choice == 15:
            self._garbage()
        elif choice == 16:
            self._request(rng.choice(["textDocument/hover", "x/unknown"]), {}, well_formed=False)
        elif choice == 17 and rng.random() < 0.3:
            self._kill_worker()
        elif choice == 18 and rng.random() < 0.3:
            self._shutdown()
        elif choice == 19 and rng.random() < 0.15:
            self._notify("exit", None)
            self.exited = True
        elif choice == 20:
            self._notify("$/cancelRequest", {"id": rng.randrange(100)})
        elif choice == 21 and rng.random() < 0.1:
            self._ending_signal()

    def _notebook(self) -> None:
        rng = self.rng
        uri = (self.project / rng.choice(["nb.ipynb", "other.ipynb"])).as_uri()
        cells = [f"{uri}#cell{n}" for n in range(rng.randrange(0, 5))]
        documents = [c for c in cells if rng.random() < 0.8]  # some cells without their document
        kinds = [rng.choice([1, 2, 2, 7]) for _ in cells]
        if rng.random() < 0.6:
            self.sent += 200 * len(documents)
            self._notify(
                "notebookDocument/didOpen",
                {
                    "notebookDocument": {
                        "uri": uri,
                        "notebookType": "jupyter-notebook",
                        "version": 1,
                        "cells": [
                            {"kind": kind, "document": cell} for kind, cell in zip(kinds, cells, strict=True)
                        ],
                    },
                    "cellTextDocuments": [
                        {
                            "uri": cell,
                            "languageId": rng.choice(["python", "markdown", "r"]),
                            "version": 1,
                            "text": _text(rng)[:200],
                        }
                        for cell in documents
                    ],
                },
            )
        else:
            start = rng.choice([0, 1, 5, -1])
            self._notify(
                "notebookDocument/didChange",
                {
                    "notebookDocument": {"uri": uri, "version": 2},
                    "change": {
                        "cells": {
                            "structure": {
                                "array": {
                                    "start": start,
                                    "deleteCount": rng.choice([0, 1, 9]),
                                    "cells": [{"kind": 2, "document": f"{uri}#new"}],
                                },
                                "didOpen": [
                                    {"uri": f"{uri}#new", "languageId": "python", "version": 1, "text": CALL}
                                ],
                                "didClose": [{"uri": rng.choice(cells or [f"{uri}#gone"])}],
                            },
                            "textContent": [
                                {
                                    "document": {"uri": rng.choice(cells or [f"{uri}#gone"]), "version": 2},
                                    "changes": [{"range": _range(rng), "text": CALL}],
                                }
                            ],
                        }
                    },
                },
            )

    def _garbage(self) -> None:
        rng = self.rng
        body = rng.choice(
            [
                b"{bad json",
                b"\xff\xfe\x00",
                b"[1, 2]",
                b"null",
                b'{"jsonrpc": "2.0", "id": {}, "method": "shutdown"}',
                b'{"jsonrpc": "1.0", "id": "g5", "method": "shutdown"}',
                b'{"jsonrpc": "2.0", "id": "g6", "method": 7}',
                b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 5}}',
                b'{"jsonrpc": "2.0", "id": "g8", "method": "textDocument/codeAction", "params": []}',
                b"[" * 200_000,
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "method": "textDocument/didOpen",
                        "params": {
                            "textDocument": {
                                "uri": "file:///x.py",
                                "languageId": "python",
                                "version": 1,
                                "text": "\ud800",
                            }
                        },
                    }
                ).encode(),
            ]
        )
        how = rng.randrange(6)
        if how == 0:
            data = b"Content-Length: %d\r\nContent-Type: x\r\n\r\n" % len(body) + body
        elif how == 1:
            data = b"X-Header: " + b"y" * 20_000 + b"\r\n" + frame(body)
        elif how == 2:
            data = b"Content-Length: -4\r\n\r\n" + frame(body)
        else:
            data = frame(body)
        self.judge.messages += 1
        self.server.send_raw(data)

    def _kill_worker(self) -> None:
        for pid in children(self.server.process.pid):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    command = handle.read()
                if b"multiprocessing.spawn" in command and b"resource_tracker" not in command:
                    os.kill(pid, signal.SIGKILL)
                    self.worker_killed = True
            except OSError:
                pass

    def _ending_signal(self) -> None:
        self.signalled = True
        workers = children(self.server.process.pid)
        if self.rng.random() < 0.5:
            self.server.process.send_signal(signal.SIGTERM)
            try:
                code = self.server.process.wait(END)
            except subprocess.TimeoutExpired:
                self.report("hang", "no end after SIGTERM")
                return
            if code == -signal.SIGTERM:  # judged once its output is read (`_judge_output`)
                self.killed_starting = workers
            elif code != (0 if self.shut_down else 1):
                self.report("traceback", f"exit code {code} after SIGTERM (shutdown {self.shut_down})")
        else:
            self.server.process.kill()
            self.server.process.wait()
        deadline = time.monotonic() + 10 + ANSWER / 3
        while time.monotonic() < deadline:
            if not [pid for pid in workers if alive(pid)]:
                return
            time.sleep(0.2)
        self.report("hang", "a worker outlived its server (an orphan)")

    def _end(self) -> None:
        process = self.server.process
        if process.poll() is None and not self.signalled:
            if self.rng.random() < 0.7 and not self.exited:
                if not self.shut_down:
                    self._shutdown()
                self._notify("exit", None)
                self.exited = True
            elif self.rng.random() < 0.3 and not self.exited:  # (after `exit`, nothing answers)
                self.server.send_raw(b"Content-Length: 99999999999999\r\n\r\n")
                if self.server.response(None, 30) is None:
                    self.report("hang", "no answer to a header over the limit")
        code, _ = self.server.close(END)
        if code is None:
            self.report(
                "hang", f"no end within {END:.0f} s of {'exit' if self.exited else 'the end of its input'}"
            )
            return
        if self.signalled:
            return
        expected = 0 if self.shut_down else 1  # `exit` after `shutdown`, or the input's end
        if code != expected:
            self.report(
                "traceback",
                f"exit code {code}, not {expected} (shutdown {self.shut_down}, exit {self.exited})",
            )

    def _judge_output(self, before: tuple[dict, dict]) -> None:
        stderr = self.server.stderr.decode("utf-8", "replace")
        if "Traceback" in stderr:
            self.report("traceback", stderr.strip().splitlines()[-1])
        for line in stderr.splitlines():
            if not line.startswith("tf24migrate server: "):
                self.report("traceback", f"a line on stderr that is no log entry: {line[:100]}")
                break
        if self.server.unframed:
            self.report("misleading message", f"output not in LSP's framing: {self.server.unframed[:60]!r}")
        for message in [*self.server.kept, *_drained(self.server)]:
            self._judge_message(message)
        after = snapshot(self.project), snapshot(self.outside)
        if after[0] != before[0]:
            changed = sorted(
                set(after[0]) ^ set(before[0]) | {k for k in before[0] if after[0].get(k) != before[0][k]}
            )
            self.report("write outside", f"the project changed: {changed[:3]}")
        if after[1] != before[1]:
            self.report("write outside", "the folder beside the project changed")
        if self.killed_starting is not None:
            self._judge_killed_starting(stderr)
        if not self.signalled or self.server.process.returncode != -signal.SIGKILL:
            left = os.listdir(self.temporary)
            if left:
                self.report("write outside", f"left in the temporary folder: {left[:2]}")
        if self.memory is not None and self.sent:
            grown, judge = self.grown, self.judge
            judge.big_sessions[self.beyond_the_plane] += 1
            if self.beyond_the_plane:
                judge.peak_ratio_beyond = max(judge.peak_ratio_beyond, grown / self.sent)
            else:
                judge.peak_ratio = max(judge.peak_ratio, grown / self.sent)
            judge.peak_bytes = max(judge.peak_bytes, self.memory.peak)
            if grown > MEMORY_FACTOR * self.sent:
                self.report("memory", f"{grown >> 20} MB above the warm start for {self.sent >> 10} KB sent")

    def _judge_killed_starting(self, stderr: str) -> None:
        """A SIGTERM that ended the server by its default (exit -15): POSIX's, and right while
        Python starts, before any of the server's code runs (it cannot handle a signal before);
        from the first of its code, the server handles SIGTERM (`server.sigterm`). So a death by
        SIGTERM is a defect once anything shows the server's code ran: a worker started, a file
        in its temporary folder, a line on stderr."""
        left = [f"worker {pid}" for pid in self.killed_starting or []]
        left += [f"{name} in the temporary folder" for name in os.listdir(self.temporary)]
        left += ["output on stderr"] if stderr else []
        if left:
            self.report("traceback", f"exit code -15 after SIGTERM, leaving {', '.join(left[:3])}")

    def _judge_message(self, message: dict) -> None:
        method = message.get("method")
        if method == "textDocument/publishDiagnostics":
            text = self.open.get(message["params"]["uri"], "")
            for diagnostic in message["params"]["diagnostics"]:
                words = diagnostic.get("message", "")
                internal = "internal error" in words or "please report" in words.lower()
                if internal and not self.worker_killed:
                    self.report("internal error", words)
                if "took longer than" in words and not self.timeout_set and len(text) < 65536:
                    self.report("misleading message", f"a text of {len(text)} characters took too long")
                if "nesting too deep" in words and text and not _deep(text):
                    self.report("misleading message", "nesting too deep, for a text without deep nesting")
                start, end = diagnostic["range"]["start"], diagnostic["range"]["end"]
                if (start["line"], start["character"]) > (end["line"], end["character"]):
                    self.report("misleading message", "a diagnostic's range ends before it starts")
        elif method == "window/showMessage":
            words = message["params"].get("message", "")
            if "Error in server" in words or "internal error" in words or "please report" in words.lower():
                self.report("internal error", words)


def _drained(server: RawServer) -> list[dict]:
    found = []
    while not server.messages.empty():
        message = server.messages.get_nowait()
        if message is not None:
            found.append(message)
    return found


def fuzz(minutes: float, log: Path, seed: int | None, sessions: int | None) -> tuple[Judge, str]:
    """Sessions for `minutes` (or `sessions` of them), the first seeds drawn from `seed`; the
    judge and the summary line."""
    log.parent.mkdir(parents=True, exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="tf24fuzz-server-"))
    judge = Judge(log)
    seeds = random.Random(seed)
    deadline = time.monotonic() + minutes * 60
    started = time.monotonic()
    try:
        while time.monotonic() < deadline and (sessions is None or judge.sessions < sessions):
            session_seed = seed if sessions == 1 and seed is not None else seeds.randrange(2**32)
            Session(session_seed, judge, base).run()
            judge.sessions += 1
            if judge.sessions % 20 == 0:
                with open(log, "a") as handle:
                    handle.write(
                        f"{time.strftime('%H:%M:%S')} sessions {judge.sessions} messages {judge.messages} "
                        f"findings {judge.findings or 'none'}\n"
                    )
    finally:
        shutil.rmtree(base, ignore_errors=True)
    summary = (
        f"sessions {judge.sessions}, messages {judge.messages}, findings {judge.findings or 'none'}, "
        f"distinct {len(judge.seen)}, {time.monotonic() - started:.0f} s wall; big documents: peak "
        f"{judge.peak_bytes >> 20} MB (server and worker), growth {judge.peak_ratio:.1f}x the bytes sent "
        f"({judge.big_sessions[0]} sessions), with an emoji {judge.peak_ratio_beyond:.1f}x "
        f"({judge.big_sessions[1]} sessions)"
    )
    with open(log, "a") as handle:
        handle.write(summary + "\n")
    return judge, summary


def test_fuzz_server(tmp_path: Path) -> None:
    log = Path(LOG or tmp_path) / "fuzz-server.log"
    judge, summary = fuzz(MINUTES, log, SEED, SESSIONS)
    print(summary)
    assert not judge.findings, log.read_text()
