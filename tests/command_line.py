"""The command as a user runs it, for the tests of its options: in a process of its own (`run`), or
called in the test's process as that process would call it (`run_in_process`).

A process of its own costs a Python start and a load of the engine, 0.15-0.3 s of CPU each time:
hundreds of runs were most of the fast suite's time. `run_in_process` is for the tests of what the
command does with its options, files and streams; a test of what only a fresh process shows (what
it loads, its exit through `entry_point`, signals, the standard streams it is given, a process
that runs beside another) keeps `run`.
"""

from __future__ import annotations

import contextlib
import io
import locale
import os
import signal
import subprocess
import sys
from collections.abc import Iterator


def run(*args, cwd=None, stdin: str | None = None, env=None, timeout=300) -> subprocess.CompletedProcess[str]:
    """`tf24migrate ARGS...` in `cwd` (with `stdin` as its input, `env` as its environment); its
    streams as text."""
    return subprocess.run(
        [sys.executable, "-m", "tf24migrate", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        env=env,
        timeout=timeout,
    )


def run_in_process(
    *args, cwd=None, stdin: str | bytes | None = None, env=None, text=True
) -> subprocess.CompletedProcess:
    """`run`'s result, from the command's `main` called in this process: `sys.argv`, the working
    folder, the environment (all of it replaced by `env` if given) and the standard streams set as
    the process would have them (no terminal; stdin empty unless `stdin`), restored afterwards with
    the signal handlers the command sets. The exit status is the one `entry_point` would give; the
    streams are read back as `run` reads them (the locale's encoding, universal newlines), or as
    bytes with `text=False` (then `stdin` is bytes too), as `subprocess.run` gives them."""
    from tf24migrate.cli import command

    argv = ["tf24migrate", *map(str, args)]
    given = stdin.encode(_ENCODING) if isinstance(stdin, str) else stdin or b""
    written: dict[str, bytes] = {}
    with _streams(given, written), _process_state(argv, cwd, env):
        try:
            command.main()
            code = 0
        except SystemExit as done:
            code = command._status(done.code)
    out, err = written["stdout"], written["stderr"]
    if text:
        return subprocess.CompletedProcess(argv, code, _as_read(out), _as_read(err))
    return subprocess.CompletedProcess(argv, code, out, err)


# The encoding of a process's standard streams on a pipe, and of `subprocess.run(text=True)`.
_ENCODING = locale.getpreferredencoding(False)


def _as_read(data: bytes) -> str:
    """`data` as `subprocess.run(text=True)` decodes what it read from a pipe."""
    return io.TextIOWrapper(io.BytesIO(data), encoding=_ENCODING).read()


@contextlib.contextmanager
def _streams(stdin: bytes, written: dict[str, bytes]) -> Iterator[None]:
    """Standard streams over bytes in memory, encoded as a process's are on a pipe; what was
    written to stdout and stderr is in `written` afterwards."""
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding=_ENCODING)
    sys.stdout = out = io.TextIOWrapper(io.BytesIO(), encoding=_ENCODING)
    sys.stderr = err = io.TextIOWrapper(io.BytesIO(), encoding=_ENCODING, errors="backslashreplace")
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for name, stream in (("stdout", out), ("stderr", err)):
            stream.flush()
            written[name] = stream.detach().getvalue()  # type: ignore[attr-defined] - a BytesIO


@contextlib.contextmanager
def _process_state(argv: list[str], cwd, env) -> Iterator[None]:
    """`sys.argv`, the working folder, the environment and the stop signals' handlers for a call
    of the command, restored afterwards."""
    saved_argv, saved_cwd, saved_env = sys.argv, os.getcwd(), dict(os.environ)
    numbers = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    handlers = {number: signal.getsignal(number) for number in numbers}
    sys.argv = argv
    try:
        if cwd is not None:
            os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        yield
    finally:
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)
        for number, handler in handlers.items():
            signal.signal(number, handler)
