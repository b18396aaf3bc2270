"""`tf24migrate server` as a command: its help, the message when the `server` extra is missing, and
that the rest of the command never imports the server's libraries."""

from __future__ import annotations

import subprocess
import sys

RUN_MAIN = """
import sys
{before}
from tf24migrate.cli.command import main
sys.argv = ["tf24migrate", *{args!r}]
try:
    main()
finally:
    print("pygls loaded" if "pygls" in sys.modules else "pygls not loaded", file=sys.stderr)
"""


def run(*args: str, before: str = "") -> subprocess.CompletedProcess:
    code = RUN_MAIN.format(before=before, args=list(args))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_help_names_the_extra():
    result = run("server", "--help")
    assert result.returncode == 0
    assert "Usage: tf24migrate server" in result.stdout and "tf24migrate[server]" in result.stdout


def test_without_the_extra_one_line_says_what_to_install():
    result = run("server", before="sys.modules['pygls'] = None  # as if not installed")
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "tf24migrate: error: the language server needs the `server` extra (pygls is missing): "
        'pip install "tf24migrate[server]"'
    )


def test_the_command_does_not_load_the_server():
    version = run("--version")
    assert version.returncode == 0 and version.stderr.strip() == "pygls not loaded"
