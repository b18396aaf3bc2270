"""`--interactive`: show each change and ask, as `git add -p` does, before writing it.

A change is one finding's fix (in a Python file or a notebook's cell), shown as the diff it makes
on its own; what a fix brings with it (the import its new name needs, an import it leaves unused)
comes and goes with it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

HELP = """\
y - write this change
n - skip this change (its code is left as it is, and its finding reported)
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

    def accepts(self, path: str, diff: str, what: str = "") -> bool:
        """Show `diff` and ask whether to write it (`what`: which change, after the path); True
        to write."""
        if self.accept_all:
            return True
        if self.quit:
            return False
        self.show(diff)
        while True:
            self.show(f"Apply this change to {path}{what} [y,n,a,q,?]? ")
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
