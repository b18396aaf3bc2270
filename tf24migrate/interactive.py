"""`--interactive`: show each file's change and ask, as `git add -p` does, before writing it.

The unit is a file, not a hunk: a file's edits depend on each other (an import added at the top
and the call that needs it), so half of them could leave code that parses but does not run.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

HELP = """\
y - write this change
n - skip this change (the file is left as it is)
a - write this change and all the following ones without asking
q - quit: write neither this change nor any following one
? - print this help"""


class Answer(enum.Enum):
    ACCEPT = "y"
    SKIP = "n"
    ACCEPT_ALL = "a"
    QUIT = "q"


class Review:
    """Asks about one change after another; remembers "all" and "quit"."""

    def __init__(self, show: Callable[[str], None], read_line: Callable[[], str]) -> None:
        self.show = show
        self.read_line = read_line
        self.accept_all = False
        self.quit = False

    def accepts(self, path: str, diff: str) -> bool:
        """Show `diff` and ask whether to write it; True to write."""
        if self.accept_all:
            return True
        if self.quit:
            return False
        self.show(diff)
        while True:
            self.show(f"Apply this change to {path} [y,n,a,q,?]? ")
            line = self.read_line()
            if not line:  # end of input: as `q`
                self.show("\n")
                self.quit = True
                return False
            answer = line.strip().lower()[:1]
            if answer == Answer.ACCEPT.value:
                return True
            if answer == Answer.SKIP.value:
                return False
            if answer == Answer.ACCEPT_ALL.value:
                self.accept_all = True
                return True
            if answer == Answer.QUIT.value:
                self.quit = True
                return False
            self.show(HELP + "\n")
