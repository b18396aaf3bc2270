"""The text of a document as the client sees it: lines split where LSP splits them (`\\r\\n`,
`\\r`, `\\n`, the places Python counts lines at too), positions in the client's units (UTF-16
unless the client chose another), changes applied, and the edits that turn one text into another.

The server keeps the texts itself rather than reading pygls's workspace: pygls splits lines with
`str.splitlines`, which also breaks at form feeds, `\\x1c`-`\\x1e`, `\\x85` and `\\u2028`, so an
incremental change after one of those would land elsewhere in its copy than in the editor.

A text is held as UTF-8 (`encode`: lone surrogates kept, as JSON can send them), its line starts as
byte offsets, and only the lines a position, a diagnostic or an edit needs are decoded: a `str`
holds every character at 4 bytes once one is beyond the Basic Multilingual Plane (an emoji), and
the server held a 5 MB module at 20 MB (issue 46: the server and its worker grew by 14.5x the text
sent through a check, a code action and a change; 10x is the bound).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import overload

from lsprotocol import types

from tf24migrate.rules.text import line_opcodes

Units = Callable[[str], int]  # how many of the client's code units a string takes
# Bytes of an edit (lines replaced and their new text) above which it is cut to the part that
# changed: a fix in a 28 MB line sent the line twice in a code action's answer (100 MB more memory).
LONG_EDIT = 64 * 1024
_BLOCK = 4096  # bytes compared at a time to find where two texts differ
_NEWLINE = re.compile(rb"\r\n?|\n")  # LSP's line ends, and Python's
_SPLIT_UP_TO = 1 << 22  # bytes: a longer text's lines are not all held at once to find their starts


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def encode(text: str) -> bytes:
    """`text` as the server holds it: UTF-8, a lone surrogate (which JSON can send) kept."""
    return text.encode("utf-8", "surrogatepass")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def _line_starts(data: bytes) -> array[int]:
    """The byte offset of each line of `data`, and `len(data)` last when it ends with a line end
    (`bytes.splitlines` ends lines where LSP does: `\r\n`, `\r`, `\n`)."""
    starts = array("i" if len(data) < 2**31 else "q", [0])
    if len(data) < _SPLIT_UP_TO and b"\r" not in data:
        # `\n` only: `splitlines` is twice as fast, but holds every line at once
        starts.extend(accumulate(map(len, data.splitlines(True))))
        if data and data[-1:] != b"\n":
            starts.pop()
    else:
        starts.extend(match.end() for match in _NEWLINE.finditer(data))
    return starts


_last: list[tuple[bytes, array[int]]] = []  # the last text's line starts


def line_starts(data: bytes) -> array[int]:
    """`data`'s line starts, the last text's kept (that very object): a document's diagnostics,
    its code action and its next change ask for the same ones."""
    if not _last or _last[0][0] is not data:
        _last[:] = [(data, _line_starts(data))]
    return _last[0][1]


class Lines:
    """`data` (a text as UTF-8) by lines, with the conversions between the client's positions and
    byte offsets in it."""

    def __init__(self, data: bytes | str, units: Units = utf16_units) -> None:
        self.data = data if isinstance(data, bytes) else encode(data)
        self.units = units
        # an array of machine ints (kept for the last text): a list of int objects took 8 MB for a
        # 5 MB module, made again for each code action
        self.starts = line_starts(self.data)

    def _end(self, number: int) -> int:
        """The byte offset where line `number` (0-based) ends, before its line break."""
        end = self.starts[number + 1] if number + 1 < len(self.starts) else len(self.data)
        while end > self.starts[number] and self.data[end - 1] in b"\r\n":
            end -= 1
        return end

    def line(self, number: int) -> str:
        """Line `number` (0-based) without its line end."""
        return decode(self.data[self.starts[number] : self._end(number)])

    def offset(self, position: types.Position) -> int:
        """The byte offset of a client's position (clamped to the text and to its line)."""
        if position.line >= len(self.starts):
            return len(self.data)
        line, units, index = self.line(position.line), 0, 0
        while index < len(line) and units < position.character:
            units += self.units(line[index])
            index += 1
        return self.starts[position.line] + len(encode(line[:index]))

    def position(self, offset: int) -> types.Position:
        """The client's position of a byte offset (at a character's start)."""
        offset = max(0, min(offset, len(self.data)))
        number = _last_at_most(self.starts, offset)
        start = self.starts[number]
        before = self.data[start:offset]
        if number + 1 < len(self.starts):
            before = before.rstrip(b"\r\n")
        return types.Position(line=number, character=self.units(decode(before)))

    def at(self, line: int, column: int) -> types.Position:
        """The client's position of a finding's place (line and column 1-based, in characters)."""
        if line - 1 >= len(self.starts):
            return self.position(len(self.data))
        text = self.line(line - 1)
        return types.Position(line=line - 1, character=self.units(text[: max(column - 1, 0)]))

    def line_end(self, line: int) -> int:
        """The byte offset of the end of line `line` (1-based), before its line break."""
        return self._end(line - 1)

    def _inside_crlf(self, offset: int) -> bool:
        return 0 < offset < len(self.data) and self.data[offset - 1 : offset + 1] == b"\r\n"

    def edits_to(self, new: bytes) -> list[types.TextEdit]:
        """The fewest whole-line edits that turn `data` into `new` (UTF-8 too): one per changed
        run of lines, each new text decoded on its own."""
        old_lines = _LineSequence(self.data, self.starts)
        # not kept as `line_starts`'s last text: that would hold a big migrated text after its edits
        new_lines = _LineSequence(new, _line_starts(new))
        edits = []
        for tag, old_from, old_to, new_from, new_to in line_opcodes(old_lines, new_lines):  # type: ignore[arg-type]
            if tag == "equal":
                continue
            start, end = (
                self.starts[at] if at < len(self.starts) else len(self.data) for at in (old_from, old_to)
            )
            new_data = b"".join(new_lines[new_from:new_to])
            if end - start + len(new_data) > LONG_EDIT:  # only what changed in the lines
                head, tail = _common_ends(self.data[start:end], new_data)
                if head and self._inside_crlf(start + head):  # between `\r` and `\n` is no position
                    head -= 1
                if tail and self._inside_crlf(end - tail):
                    tail -= 1
                start, end, new_data = start + head, end - tail, new_data[head : len(new_data) - tail]
            edits.append(
                types.TextEdit(
                    range=types.Range(start=self.position(start), end=self.position(end)),
                    new_text=decode(new_data),
                )
            )
        return edits


def _common_ends(old: bytes, new: bytes) -> tuple[int, int]:
    """How many bytes `old` and `new` share at their start, and then at their end (never
    overlapping the start), compared a block at a time (no copy of either text); each a whole
    number of characters."""
    shortest = min(len(old), len(new))
    head = shortest
    for at in range(0, shortest, _BLOCK):
        if old[at : at + _BLOCK] != new[at : at + _BLOCK]:
            head = at + _first_difference(old[at : at + _BLOCK], new[at : at + _BLOCK])
            break
    while head and (_continues(old, head) or _continues(new, head)):
        head -= 1
    rest, tail = shortest - head, shortest - head
    for at in range(0, rest, _BLOCK):
        size = min(_BLOCK, rest - at)
        old_block = old[len(old) - at - size : len(old) - at]
        new_block = new[len(new) - at - size : len(new) - at]
        if old_block != new_block:
            tail = at + _first_difference(old_block[::-1], new_block[::-1])
            break
    while tail and _continues(old, len(old) - tail):  # the same bytes in `new`
        tail -= 1
    return head, tail


def _continues(data: bytes, offset: int) -> bool:
    """Whether byte `offset` of `data` is inside a character (a UTF-8 continuation byte)."""
    return offset < len(data) and data[offset] & 0xC0 == 0x80


def _first_difference(old: bytes, new: bytes) -> int:
    """Where `old` and `new` first differ (the shorter one's length if one starts the other)."""
    return next(
        (n for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
    )


class _LineSequence(Sequence[bytes]):
    """`data`'s lines, each with its line break, made when read (by index, or a slice as a list):
    the edits of a big document compare its lines without holding them all (46 MB for the edits
    of a 5 MB module with 236 fixes, 18 MB this way)."""

    def __init__(self, data: bytes, starts: Sequence[int]) -> None:
        self.data = data
        self.starts = starts  # where each line starts (`line_starts`)
        self.size = len(starts) if starts[-1] < len(data) else len(starts) - 1

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(self.size))]
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError(index)
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.data)
        return self.data[self.starts[index] : end]


def _last_at_most(starts: Sequence[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset) - 1


def apply_change(data: bytes, change: types.TextDocumentContentChangeEvent, units: Units) -> bytes:
    """`data` (a text as UTF-8) after one change the client sent (the whole text, or a range
    replaced): the bytes spliced, never the whole text decoded."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return encode(change.text)
    lines = Lines(data, units)
    start, end = lines.offset(change.range.start), lines.offset(change.range.end)
    new = data[:start] + encode(change.text) + data[max(start, end) :]
    line_starts(new)  # what the next change and the diagnostics ask for: the old text is let go
    return new
