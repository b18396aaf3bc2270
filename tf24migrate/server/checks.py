"""What the server checks (a Python or C document, or a notebook: a `Subject`) and when: each
change asks for a check of the subject's newest text; the worker runs one check at a time off the
event loop, a result for a text that changed meanwhile is dropped and the newest text checked
instead, and only a result for the text at hand is published or used by a code action.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lsprotocol import types

from tf24migrate.model.findings import Finding
from tf24migrate.server.actions import Edits
from tf24migrate.server.documents import Lines, Units, decode, encode
from tf24migrate.server.notebooks import Cell, changed_cells, notebook_text
from tf24migrate.server.worker import Job, Outcome, Worker


@dataclass(frozen=True)
class Subject:
    """One thing checked as the command would check one file: a text document, or a notebook
    (its `cells`), with the text migrated (as UTF-8, `documents.encode`) and where its findings
    are shown."""

    key: str  # the text document's uri, or the notebook's
    path: str  # the path its settings are read for, whose suffix says its kind
    data: bytes
    units: Units
    cells: Sequence[Cell] | None = None  # a notebook's
    version: int | None = None  # a text document's, as the client numbers it

    def documents(self) -> dict[str, Lines]:
        """The text of each document shown: the text document, or each cell."""
        if self.cells is None:
            return {self.key: Lines(self.data, self.units)}
        return {cell.uri: Lines(cell.text, self.units) for cell in self.cells}

    def where(self, finding: Finding) -> str:
        """The uri of the document `finding` is shown in."""
        if self.cells is None:
            return self.key
        return self.cells[min(max((finding.cell or 1) - 1, 0), len(self.cells) - 1)].uri

    def edits(self, code: bytes) -> Edits:
        """The edits that turn the documents' texts into the migrated `code` (UTF-8)."""
        if self.cells is None:
            return {self.key: Lines(self.data, self.units).edits_to(code)}
        return {
            uri: Lines(old, self.units).edits_to(encode(new))
            for uri, (old, new) in changed_cells(self.cells, decode(code)).items()
        }


def notebook_subject(key: str, path: str, cells: Sequence[Cell], units: Units) -> Subject:
    return Subject(key, path, encode(notebook_text(cells)), units, cells=tuple(cells))


class Checks:
    """The subjects' checks: `request` after each change, `current` for the result of the text at
    hand. `subject(key)` gives a subject's newest text (None once it is closed); `publish` shows a
    result; `job(subject)` makes its job."""

    def __init__(
        self,
        worker: Worker,
        subject: Callable[[str], Subject | None],
        job: Callable[[Subject], Job],
        publish: Callable[[Subject, Outcome], None],
    ) -> None:
        self.worker = worker
        self._subject = subject
        self._job = job
        self._publish = publish
        self._changes: dict[str, int] = {}  # per subject, how many changes it had
        self._results: dict[str, tuple[int, Subject, Outcome]] = {}
        self._running: dict[str, asyncio.Task] = {}

    def changed(self, key: str) -> None:
        """The subject `key` changed (or its settings did): check its newest text. The result at
        hand is dropped: it is for an older text, which it would keep (and its migrated text) while
        the new one is checked."""
        self._changes[key] = self._changes.get(key, 0) + 1
        self._results.pop(key, None)
        if key not in self._running:
            self._running[key] = asyncio.ensure_future(self._check(key))

    def closed(self, key: str) -> None:
        self._changes.pop(key, None)
        self._results.pop(key, None)

    def changed_all(self) -> None:
        for key in list(self._changes):
            self.changed(key)

    def is_current(self, key: str, subject: Subject) -> bool:
        """Whether `subject` is still the text at hand of `key`."""
        result = self._results.get(key)
        return result is not None and result[1] is subject and result[0] == self._changes.get(key)

    async def _check(self, key: str) -> None:
        """Check `key` until a result is for its newest text. It is no longer running as soon as
        it returns, in the same step: a change the client sends on seeing the result (handled
        before a done callback would run) starts a check of its own, never one lost."""
        try:
            while key in self._changes:
                count = self._changes[key]
                subject = self._subject(key)
                if subject is None:  # no longer open
                    self.closed(key)
                    return
                outcome = await self.worker.run(self._job(subject))
                if self._changes.get(key) != count:
                    continue  # a newer text came meanwhile: this result is stale
                self._results[key] = (count, subject, outcome)
                self._publish(subject, outcome)
                return
        finally:
            if self._running.get(key) is asyncio.current_task():
                del self._running[key]

    async def current(self, key: str) -> tuple[Subject, Outcome] | None:
        """The result for the text at hand of `key` (waiting for its check), None once closed."""
        while key in self._changes:
            result = self._results.get(key)
            if result is not None and result[0] == self._changes[key]:
                return result[1], result[2]
            if key not in self._running:
                self.changed(key)
            await asyncio.shield(self._running[key])
        return None


def overlaps(diagnostic: types.Diagnostic, wanted: types.Range) -> bool:
    start, end = diagnostic.range.start, diagnostic.range.end
    return (start.line, start.character) <= (wanted.end.line, wanted.end.character) and (
        wanted.start.line,
        wanted.start.character,
    ) <= (end.line, end.character)
