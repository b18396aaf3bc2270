"""The text of a document as the client sees it: lines split where LSP splits them (`\\r\\n`,
`\\r`, `\\n`, the places Python counts lines at too), positions in the client's units (UTF-16
unless the client chose another), changes applied, and the edits that turn one text into another.

The server keeps the texts itself rather than reading pygls's workspace: pygls splits lines with
`str.splitlines`, which also breaks at form feeds, `\\x1c`-`\\x1e`, `\\x85` and `\\u2028`, so an
incremental change after one of those would land elsewhere in its copy than in the editor.
"""

from __future__ import annotations

import bisect
import inspect
from collections.abc import Callable, Sequence
from typing import overload

from lsprotocol import types

from tf24migrate.rules.text import line_opcodes, line_starts

Units = Callable[[str], int]  # how many of the client's code units a string takes
# Characters of an edit (lines replaced and their new text) above which it is cut to the part that
# changed: a fix in a 28 MB line sent the line twice in a code action's answer (100 MB more memory).
LONG_EDIT = 64 * 1024
_BLOCK = 4096  # characters compared at a time to find where two texts differ


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class Lines:
    """`text` by lines, with the conversions between the client's positions and offsets in it."""

    def __init__(self, text: str, units: Units = utf16_units) -> None:
        self.text = text
        self.units = units
        # an array of machine ints (the engine's, kept for the last text): a list of int objects
        # took 8 MB for a 5 MB module, made again for each code action
        self.starts = line_starts(text)

    def _line(self, number: int) -> str:
        """Line `number` (0-based) without its line end."""
        start = self.starts[number]
        end = self.starts[number + 1] if number + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, position: types.Position) -> int:
        """The offset in `text` of a client's position (clamped to the text and to its line)."""
        if position.line >= len(self.starts):
            return len(self.text)
        line, units, index = self._line(position.line), 0, 0
        while index < len(line) and units < position.character:
            units += self.units(line[index])
            index += 1
        return self.starts[position.line] + index

    def position(self, offset: int) -> types.Position:
        """The client's position of an offset in `text`."""
        offset = max(0, min(offset, len(self.text)))
        number = _last_at_most(self.starts, offset)
        start = self.starts[number]
        before = (
            self.text[start:offset].rstrip("\r\n")
            if number + 1 < len(self.starts)
            else self.text[start:offset]
        )
        return types.Position(line=number, character=self.units(before))

    def at(self, line: int, column: int) -> types.Position:
        """The client's position of a finding's place (line and column 1-based, in characters)."""
        if line - 1 >= len(self.starts):
            return self.position(len(self.text))
        text = self._line(line - 1)
        return types.Position(line=line - 1, character=self.units(text[: max(column - 1, 0)]))

    def line_end(self, line: int) -> int:
        """The offset of the end of line `line` (1-based), before its line break."""
        return self.starts[line - 1] + len(self._line(line - 1))

    def _inside_crlf(self, offset: int) -> bool:
        return 0 < offset < len(self.text) and self.text[offset - 1 : offset + 1] == "\r\n"

    def edits_to(self, new: str) -> list[types.TextEdit]:
        """The fewest whole-line edits that turn `text` into `new` (one per changed run of lines)."""
        old_lines = _LineSequence(self.text, self.starts)
        # not kept as `line_starts`'s last text: that would hold a big migrated text after its edits
        new_lines = _LineSequence(new, inspect.unwrap(line_starts)(new))
        edits = []
        for tag, old_from, old_to, new_from, new_to in line_opcodes(old_lines, new_lines):
            if tag == "equal":
                continue
            start, end = (
                self.starts[at] if at < len(self.starts) else len(self.text) for at in (old_from, old_to)
            )
            new_text = "".join(new_lines[new_from:new_to])
            if end - start + len(new_text) > LONG_EDIT:  # only what changed in the lines
                head, tail = _common_ends(self.text[start:end], new_text)
                if head and self._inside_crlf(start + head):  # between `\r` and `\n` is no position
                    head -= 1
                if tail and self._inside_crlf(end - tail):
                    tail -= 1
                start, end, new_text = start + head, end - tail, new_text[head : len(new_text) - tail]
            edits.append(
                types.TextEdit(
                    range=types.Range(start=self.position(start), end=self.position(end)),
                    new_text=new_text,
                )
            )
        return edits


def _common_ends(old: str, new: str) -> tuple[int, int]:
    """How many characters `old` and `new` share at their start, and then at their end (never
    overlapping the start), compared a block at a time (no copy of either text)."""
    shortest = min(len(old), len(new))
    head = shortest
    for at in range(0, shortest, _BLOCK):
        if old[at : at + _BLOCK] != new[at : at + _BLOCK]:
            head = at + _first_difference(old[at : at + _BLOCK], new[at : at + _BLOCK])
            break
    rest = shortest - head
    for at in range(0, rest, _BLOCK):
        size = min(_BLOCK, rest - at)
        old_block = old[len(old) - at - size : len(old) - at]
        new_block = new[len(new) - at - size : len(new) - at]
        if old_block != new_block:
            return head, at + _first_difference(old_block[::-1], new_block[::-1])
    return head, rest


def _first_difference(old: str, new: str) -> int:
    """Where `old` and `new` first differ (the shorter one's length if one starts the other)."""
    return next(
        (n for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
    )


class _LineSequence(Sequence[str]):
    """`text`'s lines, each with its line break, made when read (by index, or a slice as a list):
    the edits of a big document compare its lines without holding them all (46 MB for the edits
    of a 5 MB module with 236 fixes, 18 MB this way)."""

    def __init__(self, text: str, starts: Sequence[int]) -> None:
        self.text = text
        self.starts = starts  # where each line starts (`line_starts`)
        self.size = len(starts) if starts[-1] < len(text) else len(starts) - 1

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(self.size))]
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError(index)
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[index] : end]


def _last_at_most(starts: Sequence[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset) - 1


def apply_change(text: str, change: types.TextDocumentContentChangeEvent, units: Units) -> str:
    """`text` after one change the client sent (the whole text, or a range replaced)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    lines = Lines(text, units)
    start, end = lines.offset(change.range.start), lines.offset(change.range.end)
    new = text[:start] + change.text + text[max(start, end) :]
    line_starts(new)  # what the next change and the diagnostics ask for: the old text is let go
    return new
