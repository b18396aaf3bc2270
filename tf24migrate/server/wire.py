"""The server's end of the wire: LSP's messages read from standard input, each bounded, each bad
one answered, and what the server logs, one line each.

pygls reads a message of any announced length whole (`Content-Length: 99999999999999` is a
MemoryError), logs tracebacks for what a client gets wrong, and answers nothing to a message it
cannot parse. Here, a thread reads the input: a header line longer than `MAX_HEADER` bytes or a
message longer than `MAX_MESSAGE` is skipped unread (read in small pieces and dropped) with an
InvalidRequest error; a message that is not UTF-8 or not JSON gets a ParseError, one that is not a
JSON-RPC object an InvalidRequest, a request whose parameters have the wrong shape an InvalidParams
error with its id (as JSON-RPC 2.0 says; a notification's only a line in the log). Every other
message goes to pygls on the event loop, as pygls's own reader would hand it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException

MAX_HEADER = 8 * 1024  # bytes of one header line
MAX_MESSAGE = 32 * 1024 * 1024  # bytes of one message's content
_CHUNK = 1024 * 1024  # what is read at a time of a message skipped

# JSON-RPC 2.0's error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002  # LSP's

Reply = Callable[[Any, int, str], None]  # (id, code, message): an error answer sent to the client


def one_line(text: str) -> str:
    """`text` as one line: its first line, or, for a traceback, its last (the error itself)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    return lines[-1] if lines[0].startswith("Traceback") else lines[0]


class OneLineFormatter(logging.Formatter):
    """Each log entry on one line, `tf24migrate server: <level>: <message> (<error>)`: a traceback
    becomes the error it ends in."""

    def format(self, record: logging.LogRecord) -> str:
        message = one_line(record.getMessage())
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message += f" ({type(error).__name__}: {one_line(str(error))})"
        return f"tf24migrate server: {record.levelname.lower()}: {message}"


def log_one_line() -> None:
    """Log warnings and errors (pygls's, asyncio's, the threads') to standard error, each on one
    line; the tracebacks of errors nobody caught too."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)

    def uncaught(kind, error, _traceback) -> None:
        logging.getLogger("tf24migrate.server").error("uncaught: %s: %s", kind.__name__, one_line(str(error)))

    sys.excepthook = uncaught
    threading.excepthook = lambda args: uncaught(args.exc_type, args.exc_value, None)
    sys.unraisablehook = lambda args: uncaught(type(args.exc_value), args.exc_value, None)


class Reader:
    """The thread that reads `stream`: `deliver(message)` for each message that is a JSON-RPC
    object (called on `loop`), `reply(id, code, message)` for each that is not, `ended()` at the
    end of the input."""

    def __init__(
        self,
        stream: BinaryIO,
        loop: asyncio.AbstractEventLoop,
        deliver: Callable[[dict], None],
        reply: Reply,
        ended: Callable[[], None],
    ) -> None:
        self.stream = stream
        self.loop = loop
        self.deliver = deliver
        self.reply = reply
        self.ended = ended
        self.thread = threading.Thread(target=self._read, name="tf24migrate-reader", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _soon(self, function: Callable, *args) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is ending
            self.loop.call_soon_threadsafe(function, *args)

    def _read(self) -> None:
        try:
            while self._one():
                pass
        except (OSError, ValueError) as error:
            logging.getLogger("tf24migrate.server").warning("the input cannot be read: %s", error)
        self._soon(self.ended)

    def _one(self) -> bool:
        """Read one message (its headers, then its content); False at the end of the input."""
        length: int | None = None
        problem = None
        while True:
            line = self.stream.readline(MAX_HEADER + 1)
            if not line:
                return False
            if len(line) > MAX_HEADER and not line.endswith(b"\n"):
                problem = f"a header line longer than {MAX_HEADER} bytes"
                while line and not line.endswith(b"\n"):  # the rest of it, dropped
                    line = self.stream.readline(_CHUNK)
                continue
            if line in (b"\r\n", b"\n"):
                if length is not None or problem is not None:
                    break
                continue  # blank lines between messages
            name, colon, value = line.partition(b":")
            if colon and name.strip().lower() == b"content-length":
                given = value.strip()
                length = int(given) if given.isdigit() and len(given) < 20 else None
                if length is None:
                    problem = f"a Content-Length that is not a number of bytes ({one_line(given.decode('latin-1'))[:40]!r})"
        if length is None:
            self._soon(
                self.reply, None, INVALID_REQUEST, f"message not read: {problem or 'no Content-Length'}"
            )
            return True
        if problem is None and length > MAX_MESSAGE:
            problem = f"its {length} bytes are over the limit of {MAX_MESSAGE} bytes"
        if problem is not None:
            self._soon(self.reply, None, INVALID_REQUEST, f"message not read: {problem}")
            while length > 0:  # dropped as it comes: never held
                piece = self.stream.read(min(length, _CHUNK))
                if not piece:
                    return False
                length -= len(piece)
            return True
        body = self.stream.read(length)
        if len(body) < length:
            return False
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            self._soon(
                self.reply,
                None,
                PARSE_ERROR,
                f"the message is not UTF-8 ({error.reason} at byte {error.start})",
            )
            return True
        del body  # a big document is held twice at most while it is parsed, not three times
        self._parsed(text)
        return True

    def _parsed(self, text: str) -> None:
        """Hand over the message in `text`, or answer why it is not one."""
        try:
            message = json.loads(text)
        except (ValueError, RecursionError) as error:
            self._soon(self.reply, None, PARSE_ERROR, f"the message is not JSON ({one_line(str(error))})")
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            what = "object" if isinstance(message, dict) else type(message).__name__
            number = message.get("id") if isinstance(message, dict) else None
            self._soon(
                self.reply,
                number if _is_id(number) else None,
                INVALID_REQUEST,
                f'the message is not a JSON-RPC 2.0 object ({what} without "jsonrpc": "2.0")'
                if what == "object"
                else f"the message is not a JSON-RPC 2.0 object (a JSON {what})",
            )
            return
        self._soon(self.deliver, message)


def _is_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def handed_over(
    message: dict, structure: Callable[[dict], Any], handle: Callable[[Any], None], reply: Reply
) -> None:
    """Give `message` to pygls (`structure` makes it an LSP message, `handle` handles it); one of
    the wrong shape is answered (a request) or logged (a notification), never raised."""
    number = message.get("id")
    request = "method" in message and "id" in message
    if "id" in message and not (_is_id(number) or (number is None and not request)):
        reply(
            None,
            INVALID_REQUEST,
            f"the message's id must be a number or a string, not {json.dumps(number)[:40]}",
        )
        return
    if "method" in message and not isinstance(message["method"], str):
        reply(number if request else None, INVALID_REQUEST, "the message's method must be a string")
        return
    try:
        structured = _quietly(structure, message)
    except JsonRpcException as error:
        method = message.get("method", "")
        text = (
            f"the parameters of {method} do not have the shape LSP gives them"
            if method
            else "a message of the wrong shape"
        )
        if request:
            reply(number, INVALID_PARAMS, text)
        else:
            logging.getLogger("tf24migrate.server").warning(
                "%s: %s; ignored", text, one_line(str(error.__cause__ or error))
            )
        return
    handle(structured)


def _quietly(function: Callable[[dict], Any], message: dict) -> Any:
    """`function(message)`, without the traceback pygls logs for a message it cannot structure."""
    logger = logging.getLogger("pygls.protocol.json_rpc")
    before = logger.disabled
    logger.disabled = True
    try:
        return function(message)
    finally:
        logger.disabled = before
