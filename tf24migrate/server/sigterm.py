"""SIGTERM to the server, from its first moment to its last: one handler, installed before the
server starts its worker or loads pygls, so that a SIGTERM at any moment ends the server as `exit`
without `shutdown` does (code 1, the worker ended, the temporary folder removed), never by the
signal's default.

The handler only notes the signal, and once the event loop runs asks it to end (`when_running`):
a handler that raised (`SystemExit`) was swallowed when it ran inside a callback Python ignores
errors of (importlib's module locks), and the loop's own handler, installed over this one, ran its
no-op for a SIGTERM taken a moment before; either way the server then waited forever. A SIGTERM
while the server loads ends it once its loop starts, a fraction of a second later.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable

_received = False
_end: Callable[[], object] | None = None  # what SIGTERM does once the loop runs


def install() -> None:
    """Handle SIGTERM from now on (in the main thread; elsewhere, a test's server, nothing)."""
    with contextlib.suppress(ValueError, AttributeError):  # not the main thread; no SIGTERM
        signal.signal(signal.SIGTERM, _handle)


def when_running(end: Callable[[], object] | None) -> None:
    """What SIGTERM does from now on: `end()` (thread-safe: it runs in the signal's handler), at
    once if a SIGTERM came already; or nothing (None: the server is ending anyway)."""
    global _end
    _end = end if end is not None else _ignore
    if _received and end is not None:
        end()


def _ignore() -> None:
    pass


def _handle(_number, _frame) -> None:
    global _received
    _received = True
    if _end is not None:
        _end()
