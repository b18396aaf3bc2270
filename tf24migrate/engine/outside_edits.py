"""The last check before a migrated text is used: every line outside the statements the migration
regenerated is the source's own, byte for byte and in order.

The engine says which source lines it regenerated (`MigrationResult.edited`); the text between
those ranges must reappear in the new code in the same order, the first piece at its start and
the last at its end. Greedy leftmost matching with `str.find` decides that in about one pass over
the text, where a line diff of the whole file (difflib) costs seconds on a large one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tf24migrate.rules.text import line_starts, split_lines

Lines = tuple[tuple[int, int], ...]  # (first, last) 1-based source lines, inclusive


def first_line_changed_outside(source: str, code: str, edited: Sequence[tuple[int, int]]) -> int | None:
    """The first source line outside `edited` that `code` does not keep, or None when all are kept."""
    starts = line_starts(source)

    def offset(line: int) -> int:  # where source line `line` starts (past the end: the end)
        return starts[line - 1] if line <= len(starts) else len(source)

    kept: list[tuple[int, int, int, bool]] = []  # (first line, start, end, last) of each kept piece
    cursor, line = 0, 1
    for first, last in sorted(edited):
        if offset(first) > cursor:  # an edit (or an insertion) follows: the piece does not end the code
            kept.append((line, cursor, offset(first), False))
        cursor, line = max(cursor, offset(last + 1)), max(line, last + 1)
    if cursor < len(source) or not edited:
        kept.append((line, cursor, len(source), True))
    position = 0
    for line, start, end, last in kept:
        piece = source[start:end]
        found = _place(piece, code, position, start == 0, last)
        if found < 0:
            return line + _first_unkept(split_lines(piece), code, position, start == 0, last)
        position = found + len(piece)
    return None


def _place(piece: str, code: str, position: int, first: bool, last: bool) -> int:
    """Where `piece` is in `code` at or after `position` (the first piece at the start, the last
    at the end), or -1."""
    if last:
        found = len(code) - len(piece) if code.endswith(piece) else -1
        return found if found >= position and (found == 0 or not first) else -1
    if first:
        return 0 if code.startswith(piece) else -1
    return code.find(piece, position)


def _first_unkept(lines: list[str], code: str, position: int, first: bool, last: bool) -> int:
    """Which line of a piece not kept (0-based) is the first that is not: the most lines kept from
    its start (or, for the last piece, from its end), found by halving."""
    from_end = last and not first
    kept, most = 0, len(lines)
    while kept < most:
        middle = (kept + most + 1) // 2
        part = "".join(lines[-middle:] if from_end else lines[:middle])
        if _place(part, code, position, first and not from_end, from_end) >= 0:
            kept = middle
        else:
            most = middle - 1
    return len(lines) - 1 - kept if from_end else min(kept, len(lines) - 1)


def changed_lines(before: str, after: str) -> Lines:
    """The line ranges of `before` that differ in `after`, for stages that keep every line where it
    is; when the number of lines differs, every line."""
    old, new = split_lines(before), split_lines(after)
    if len(old) != len(new):
        return ((1, max(len(old), 1)),)
    ranges: list[tuple[int, int]] = []
    for number, (a, b) in enumerate(zip(old, new, strict=True), start=1):
        if a != b:
            if ranges and ranges[-1][1] == number - 1:
                ranges[-1] = (ranges[-1][0], number)
            else:
                ranges.append((number, number))
    return tuple(ranges)
