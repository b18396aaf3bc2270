"""IPython syntax in notebook cells: masking it into Python placeholders, and restoring it exactly.

A cell may hold lines that are IPython, not Python: line magics (`%matplotlib inline`), shell
escapes (`!pip install x`, `x = !ls`), help (`?tf.distribute`, `tf.distribute?`, `??x`), the
autocall escapes (`/f x`, `,f a b`, `;f a b`) and a cell magic on the first line (`%%time`). Each
such line becomes a placeholder statement at the same indentation, so the cell parses with the
same line count and line numbers; `unmask` puts the original lines back byte for byte. The
placeholder's name is one the cell does not hold (`__tf24m_ipython_0__`, else `__tf24m1_ipython_0__`...),
so a cell that happens to contain it is restored as it was.

Only lines where a statement starts are looked at: a scan tracks brackets, strings and backslash
continuations, so `% x` continuing an expression or `!` inside a triple-quoted string stay Python.
A cell magic that makes the cell something other than Python (`%%bash`, `%%writefile`, `%%html`,
`%%script`, any magic not listed in `PYTHON_CELL_MAGICS`) makes the whole cell not Python to the
notebook (a `%%writefile x.py` cell's body is a Python file of its own: see `notebook_cells`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Cell magics whose body is Python run in the notebook's own namespace (IPython's built-ins).
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})

_ESCAPES = ("%", "!", "?", "/", ",", ";")
_MAGIC_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.]*(\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[!%]")
_CELL_MAGIC = re.compile(r"%%([\w-]*)")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")  # as Python splits lines: not at \x0c or \u2028
_PLACEHOLDER = "__tf24m_ipython_"


@dataclass(frozen=True, slots=True)  # one per cell: a notebook may have 100,000
class MaskedCell:
    """A cell's source with its IPython lines replaced by placeholders, and those lines."""

    code: str
    ipython_lines: tuple[str, ...]  # without their line endings, in placeholder order
    placeholder: str = _PLACEHOLDER  # the placeholders are `{placeholder}{index}__`


def absent_name(text: str, kind: str) -> str:
    """The first of `__tf24m_{kind}_`, `__tf24m1_{kind}_`, `__tf24m2_{kind}_`... that `text` does
    not hold: the start of a marker no user text can be taken for."""
    number = 0
    while (name := f"__tf24m{number or ''}_{kind}_") in text:
        number += 1
    return name


def cell_magic(source: str) -> str | None:
    """The name of the cell magic on the cell's first non-blank line (`"time"` for `%%time`)."""
    for line in source.splitlines():
        if line.strip():
            match = _CELL_MAGIC.match(line.lstrip())
            return match.group(1) if match else None
    return None


def is_python_cell(source: str) -> bool:
    magic = cell_magic(source)
    return magic is None or magic in PYTHON_CELL_MAGICS


class _Scanner:
    """Tracks, line by line, whether the next line starts a new statement."""

    def __init__(self) -> None:
        self.depth = 0  # open brackets
        self.quote: str | None = None  # the open string's quote, if a string spans lines
        self.continued = False  # the previous line ended with a backslash

    @property
    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.continued

    def scan(self, line: str) -> str:
        """Advance over `line` (no line ending); return its code before any comment."""
        i, n, code_end = 0, len(line), len(line)
        while i < n:
            char = line[i]
            if self.quote is not None:
                if char == "\\":
                    i += 2
                elif line.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                else:
                    i += 1
                continue
            if char == "#":
                code_end = i
                break
            if char in "'\"":
                triple = line[i : i + 3]
                self.quote = triple if triple in ('"""', "'''") else char
                i += len(self.quote)
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        self.continued = code_end == n and line.endswith("\\")
        if self.quote is not None and len(self.quote) == 1 and not self.continued:
            self.quote = None  # an unterminated one-line string: Python reports it, not us
        return line[:code_end]


def _is_ipython_line(line: str, scanner: _Scanner) -> bool:
    """Whether `line` is IPython syntax; advances `scanner` over it when it is Python."""
    if not scanner.at_statement_start:
        scanner.scan(line)
        return False
    stripped = line.lstrip()
    if stripped.startswith(_ESCAPES) or _MAGIC_ASSIGNMENT.match(stripped):
        return True  # `%magic`, `%%cell_magic`, `!shell`, `?help`, autocall, `x = !ls`
    code = scanner.scan(line).rstrip()
    return code.endswith("?") and scanner.at_statement_start  # help: `tf.distribute?`, `x??`


def mask(source: str) -> MaskedCell:
    """Replace each IPython line of a (Python) cell with a placeholder; see the module docstring."""
    masked: list[str] = []
    originals: list[str] = []
    scanner = _Scanner()
    continued_magic = False
    indent = ""
    placeholder = absent_name(source, "ipython")
    for line in _LINE.findall(source):
        body = line.rstrip("\r\n")
        if continued_magic or _is_ipython_line(body, scanner):
            if not continued_magic:
                indent = body[: len(body) - len(body.lstrip())]
            masked.append(f"{indent}{placeholder}{len(originals)}__{line[len(body) :]}")
            originals.append(body)
            continued_magic = body.endswith("\\")  # IPython joins the next line to the magic
        else:
            masked.append(line)
    if not originals:  # most cells: the source itself, not a copy
        return MaskedCell(source, (), _PLACEHOLDER if placeholder == _PLACEHOLDER else placeholder)
    return MaskedCell("".join(masked), tuple(originals), placeholder)


def unmask(code: str, ipython_lines: tuple[str, ...], placeholder: str = _PLACEHOLDER) -> str:
    """Put the IPython lines back in place of their placeholders (`MaskedCell.placeholder`)."""
    if not ipython_lines:
        return code
    line = re.compile(rf"^[ \t]*{placeholder}(\d+)__(?=\r?\n|\Z)", re.MULTILINE)
    return line.sub(lambda m: ipython_lines[int(m.group(1))], code)
