"""A bare LSP client over the server's stdio, for what a well-behaved client never sends: raw bytes,
headers of any length, malformed JSON, messages of the wrong shape, requests after `shutdown`, a
client that goes away. Standard library only; the tests (`tests/test_server_hostile.py`), the
fuzzing client (`stress/test_fuzz_server.py`) use it.

`RawServer` starts `tf24migrate server`, reads every message it sends in a thread of its own and
collects its standard error; `wait` takes the next message that matches, `close` ends it (or kills
it, after a time limit) and gives its exit code and standard error.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "tf24migrate", "server"]
Message = dict[str, Any]


def frame(body: bytes) -> bytes:
    """`body` with the header LSP puts before each message."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    """`tf24migrate server` run as a subprocess, spoken to with raw bytes."""

    def __init__(
        self,
        cwd: str | Path,
        env: Mapping[str, str] | None = None,
        command: list[str] | None = None,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command or SERVER,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=preexec,
        )
        self.messages: queue.Queue[Message | None] = queue.Queue()
        self.kept: list[Message] = []  # read, not yet taken by `wait`
        self.stderr = b""
        self.unframed = b""  # what the server wrote that is not a message: a defect
        self._next_id = 0
        self._readers = [
            threading.Thread(target=self._read, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line == b"\r\n":
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
                elif not name.strip().lower().startswith("content-"):
                    self.unframed += line
            if length is None:
                self.unframed += b"(a message without Content-Length)"
                continue
            body = stream.read(length)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                self.unframed += body

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr += line

    def send_raw(self, data: bytes) -> bool:
        """Write `data` as it is; False if the server no longer reads."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def send(self, message: object) -> bool:
        return self.send_raw(frame(json.dumps(message).encode("utf-8")))

    def request(self, method: str, params: object = None) -> int:
        self._next_id += 1
        message: Message = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self._next_id

    def notify(self, method: str, params: object = None) -> None:
        message: Message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def wait(self, wanted: Callable[[Message], bool], timeout: float = 30) -> Message | None:
        """The next message `wanted` accepts (answering the server's requests meanwhile), or None
        if none came within `timeout` seconds or the server closed its output."""
        for index, message in enumerate(self.kept):
            if wanted(message):
                return self.kept.pop(index)
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                return None
            if message is None:
                self.messages.put(None)  # the end, for the next `wait` too
                return None
            if "method" in message and "id" in message:  # the server asks: a client answers
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            if wanted(message):
                return message
            self.kept.append(message)
        return None

    def response(self, number: int | None, timeout: float = 30) -> Message | None:
        """The answer to request `number` (None: an answer to no request, `"id": null`)."""
        return self.wait(lambda m: "method" not in m and m.get("id", "absent") == number, timeout)

    def diagnostics(self, uri: str, timeout: float = 30) -> list[Message] | None:
        message = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri,
            timeout,
        )
        return None if message is None else message["params"]["diagnostics"]

    def initialize(self, root: Path, options: object = None, timeout: float = 60) -> Message | None:
        number = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "capabilities": {},
                "initializationOptions": options,
            },
        )
        answer = self.response(number, timeout)
        self.notify("initialized", {})
        return answer

    def open(self, uri: str, text: str, version: int = 1, language: str = "python") -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}},
        )

    def close(self, timeout: float = 30) -> tuple[int | None, str]:
        """Close the server's input and wait for it to end (killed after `timeout` s: None)."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except OSError:
            pass
        try:
            code: int | None = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            code = None
        for reader in self._readers:
            reader.join(5)
        return code, self.stderr.decode("utf-8", "replace")
