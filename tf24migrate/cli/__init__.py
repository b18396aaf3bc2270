"""The command line: `command` (the options and the run), `session` (what a run prints), and
the helpers they share.

The language server (`tf24migrate server`) handles SIGTERM from the first of this package's code
that runs, before the command's own imports (typer, the options: 30-80 ms): a SIGTERM from then on
ends it as `exit` does (`server.sigterm`). Before that moment, while Python itself starts, SIGTERM
ends the process by its default (exit -15), as it does any program's: nothing has been made yet
that could be left behind.
"""

from __future__ import annotations

import sys

if sys.argv[1:2] == ["server"]:
    from tf24migrate.server import sigterm

    sigterm.install()
