"""`--interactive`: show each change and ask, as `git add -p` does, before writing it.

A change is one finding's fix (in a Python file or a notebook's cell), shown with its finding's
message and the diff it makes on its own; what a fix brings with it (the import its new name
needs, an import it leaves unused) comes and goes with it. The review is a filter on the write
path of `--write` (`run.migrate.migrate_files`'s `choose`): it returns what to write of each
changed result, and the writes go through the same checks, interruption handling and
re-migration of a file changed meanwhile.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence

from tf24migrate.cli.groups import Group
from tf24migrate.cli.output import finding_line, printable
from tf24migrate.cli.reporters.text import details_line, diff_of
from tf24migrate.model.findings import FileResult, Finding, Status
from tf24migrate.run.migrate_file import migrate_declining

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
    """Asks about one change after another; remembers "all" and "quit", and how many changes a
    quit left unasked (`not_offered`)."""

    def __init__(
        self, show: Callable[[str], None], read_line: Callable[[], str], *, color: bool = False
    ) -> None:
        self.show = show
        self.read_line = read_line
        self.color = color
        self.accept_all = False
        self.quit = False
        self.not_offered = 0

    def accepts(self, path: str, diff: str, what: str = "", message: str = "") -> bool:
        """Show `message` (the finding's line) and `diff`, and ask whether to write it (`what`:
        which change, after the path); True to write."""
        if self.accept_all:
            return True
        if self.quit:
            return False
        if message:
            self.show(message + "\n")
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

    def choose(self, result: FileResult, group: Group, progress) -> FileResult:
        """What to write of a changed `result`: as it is, with some fixes declined, or unchanged.
        After a quit, the fixes never offered are left out of the result (neither written nor
        reported) and counted."""
        progress.clear()
        fixes = [f for f in result.findings if f.applied]
        if self.quit:
            self.not_offered += max(len(fixes), 1)
            return _unchanged(result, dropped=fixes)
        if len(fixes) <= 1:  # one question, about the file's whole change
            fix = fixes[0] if fixes else None
            if self._asks(result, diff_of(result, self.color), fix):
                return result
            return _unchanged(result)
        accepted: list[Finding] = []
        declined: list[Finding] = []
        unasked: list[Finding] = []
        for fix in fixes:
            if self.quit:
                unasked.append(fix)
            elif self._accepts_alone(result, fix, fixes, group):
                accepted.append(fix)
            else:
                declined.append(fix)
        self.not_offered += len(unasked)
        if not declined and not unasked:
            return result
        partial = _migrated(result, group, declined=[*declined, *unasked])
        findings = tuple(f for f in partial.findings if _key(f) not in {_key(u) for u in unasked})
        if partial.code == result.source:
            return _unchanged(dataclasses.replace(result, findings=findings))
        return dataclasses.replace(result, code=partial.code, findings=findings)

    def _asks(self, result: FileResult, diff: str, fix: Finding | None) -> bool:
        message = finding_line(fix, written=False) if fix is not None else ""
        if fix is not None and fix.details:
            message += "\n" + details_line(fix)
        return self.accepts(printable(result.path), diff, _which(fix) if fix else "", message)

    def _accepts_alone(self, result: FileResult, fix: Finding, fixes: list[Finding], group: Group) -> bool:
        """Show the change one fix makes on its own, and ask about it."""
        alone = _migrated(result, group, declined=[f for f in fixes if f is not fix])
        if alone.code == result.source:  # nothing to show: it goes with the others
            return True
        return self._asks(result, diff_of(dataclasses.replace(result, code=alone.code), self.color), fix)


def _migrated(result: FileResult, group: Group, declined: list[Finding]):
    return migrate_declining(result, group.settings, declined)


def _key(finding: Finding) -> tuple:
    return finding.code, finding.cell, finding.line, finding.column


def _unchanged(result: FileResult, dropped: Sequence[Finding] = ()) -> FileResult:
    """A changed file left as it is: its findings reported, none fixed (but the `dropped` ones)."""
    gone = {_key(f) for f in dropped}
    findings = tuple(dataclasses.replace(f, applied=False) for f in result.findings if _key(f) not in gone)
    return dataclasses.replace(result, status=Status.UNCHANGED, code=result.source, findings=findings)


def _which(fix: Finding) -> str:
    """Which fix a question is about, after the file's name."""
    cell = f"cell {fix.cell}, " if fix.cell is not None else ""
    return f" ({fix.code}, {cell}line {fix.line})"
