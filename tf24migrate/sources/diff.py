"""The diff of one file: what `--diff` prints for it."""

from __future__ import annotations

import os
import re


def unified_diff(path: str, before: str, after: str) -> str:
    """A `git apply`-able unified diff of one file, with no-newline-at-end markers. Lines are split
    at `\\n` only, as git splits them: a lone CR, a form feed or U+2028 is content, not a line end.

    A notebook's diff is one diff of source code per changed cell instead (`sources.kinds`).
    A name holding a control character, `"` or `\\` is quoted in the headers as git quotes it.
    """
    import difflib  # not at start-up: a run with nothing to show never needs it

    name = os.path.normpath(path).replace(os.sep, "/").lstrip("/")  # git refuses `a/./x.py`
    lines = []
    for line in difflib.unified_diff(
        _GIT_LINE.findall(before), _GIT_LINE.findall(after), git_quoted(f"a/{name}"), git_quoted(f"b/{name}")
    ):
        if line.startswith(("---", "+++")):
            line = line.rstrip("\r\n") + "\n"
        lines.append(line)
        if not line.endswith("\n"):
            lines.append("\n\\ No newline at end of file\n")
    return "".join(lines)


# git's C-style escapes (`quote_c_style` in git's quote.c); other bytes to quote are octal.
_GIT_ESCAPES = dict(zip('\a\b\t\n\v\f\r"\\', 'abtnvfr"\\', strict=True))
_NEEDS_QUOTES = re.compile('[\x00-\x1f\x7f"\\\\]')


def git_quoted(name: str) -> str:
    """`name` as a diff header names it: as it is, or in double quotes with C-style escapes when it
    holds a control character, `"` or `\\` (as git does; other characters are left as they are,
    which `git apply` reads too)."""
    if not _NEEDS_QUOTES.search(name):
        return name

    def escape(match: re.Match) -> str:
        char = match.group()
        return "\\" + _GIT_ESCAPES[char] if char in _GIT_ESCAPES else f"\\{ord(char):03o}"

    return '"' + _NEEDS_QUOTES.sub(escape, name) + '"'


def diff_bytes(diff: str, encoding: str) -> bytes:
    """A file's diff (`unified_diff` of its texts, a byte order mark put back in front of both) as
    the bytes `git apply` compares with the file: in the file's own encoding. Header names that the
    encoding cannot hold are written as UTF-8."""
    pieces = []
    for line in diff.splitlines(keepends=True):
        try:
            pieces.append(line.encode("utf-8" if encoding == "utf-8-sig" else encoding))
        except UnicodeEncodeError:
            pieces.append(line.encode("utf-8", "surrogateescape"))
    return b"".join(pieces)


_GIT_LINE = re.compile(r"[^\n]*\n|[^\n]+")
