"""The source LibCST parses when most of a file cannot matter: the statements left out (runs of
siblings that no rule's trigger reaches, `pruning.StatementPlan.sparse`), each replaced by a marker
line, and the way back to the original's lines and text."""

from __future__ import annotations

import bisect
import itertools
import re

MARKER_PREFIX = "__tf24migrate_skipped_"


class Sparse:
    """A source with statements left out, each replaced by a marker line (its indentation and a
    name): what LibCST parses when most of a file cannot matter. Maps its lines to the original's
    and puts the original text back in place of the markers."""

    _MARKER_LINE = re.compile(rf"^[ \t\f]*({MARKER_PREFIX}\d+__)(?:\r\n?|\n|$)", re.MULTILINE)

    def __init__(
        self,
        text: str,
        source: str,
        originals: dict[str, tuple[int, int]],
        ranges: list[tuple[int, int]],
        sizes: dict[str, int],
    ) -> None:
        self.text = text
        self._source = source
        self._originals = originals  # marker -> (start, end) of its statements in `source`
        self.sizes = sizes  # marker -> how many statements (siblings) it stands for
        self._starts = [start for start, _ in ranges]  # original first line of each left-out statement
        # lines removed by each marker and those before it
        self._removed = list(itertools.accumulate(end - start for start, end in ranges))
        before = [0, *self._removed[:-1]]
        self._markers = [start - removed for start, removed in zip(self._starts, before, strict=True)]

    def sparse_line(self, line: int) -> int:
        """The line of `text` holding original line `line` (not inside a left-out statement)."""
        before = bisect.bisect_left(self._starts, line)
        return line - (self._removed[before - 1] if before else 0)

    def original_line(self, line: int) -> int:
        """The original line of line `line` of `text` (a marker line: its statement's first)."""
        before = bisect.bisect_left(self._markers, line)
        return line + (self._removed[before - 1] if before else 0)

    def checkable(self, text: str) -> str:
        """What must parse for `text` (generated from the parsed `text`) restored to parse: `text`
        itself, when each of its markers is at the indentation of the statements it stands for
        (whole statements that parsed there, among the same siblings: restored, they parse there
        again), else `text` restored. Much less to parse, for a long function with a line changed."""
        for match in self._MARKER_LINE.finditer(text):
            start, _ = self._originals[match.group(1)]
            indent = match.group(0)[: match.start(1) - match.start()]
            if not self._source.startswith(indent, start) or self._source[start + len(indent)] in " \t\f":
                return self.restore(text)
        return text

    def restore(self, text: str) -> str:
        """`text` (generated from the parsed `text`) with the left-out statements put back.

        Grown a piece at a time (CPython extends a string no one else holds in place) rather than
        joined: `re.sub` holds every piece and the whole at once, 25 MB at the worker's peak for a
        5 MB module beyond the Basic Multilingual Plane (a 20 MB text at 4 bytes a character), this
        way 20 MB."""
        restored, at = "", 0
        for match in self._MARKER_LINE.finditer(text):
            start, end = self._originals[match.group(1)]
            restored += text[at : match.start()]
            restored += self._source[start:end]
            at = match.end()
        restored += text[at:]
        return restored
