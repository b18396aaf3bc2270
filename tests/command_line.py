"""The command as a user runs it, in a process of its own, for the tests of its options."""

from __future__ import annotations

import subprocess
import sys


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
