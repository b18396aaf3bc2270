"""What each notebook cell is to tf24migrate, by IPython's own rules: Python of the notebook,
a Python file of its own (`%%writefile name.py`), or skipped, and why.

IPython cleans a cell up before it runs it (`IPython.core.inputtransformer2`, its cleanup
transforms): leading blank lines are dropped and the first code line's indentation is removed
from every line that starts with it (`leading_indent`), so a cell indented as a whole runs. When
every non-blank line of a cell starts with that indentation, it is removed here too (`CellCode.body`)
and put back on the way out (`CellCode.restore`): unchanged lines byte for byte, new lines with the
indentation added. (IPython 9 removes the smallest common indentation instead; the two agree on the
cells dedented here.) The `>>> ` and `In [1]: ` prompts IPython also strips are not handled: a cell
pasted from a console with its prompts does not parse, and is reported as such.

Then IPython looks at the first line for a cell magic. A `%%writefile name.py` cell (also
`-a`/`--append`, any target ending in `.py`) writes a Python file that the notebook then runs or
imports: its body is that file, migrated as a module of its own, the magic line left as it is.
Other cell magics that make the cell something else than Python (`%%bash`, `%%html`, `%%writefile
notes.txt`; see `ipython_syntax.is_python_cell`) make the cell skipped (`SkippedCell`, with the reason).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from tf24migrate.rules.text import line_opcodes
from tf24migrate.sources.ipython_syntax import MaskedCell, cell_magic, is_python_cell, mask

_LINE = re.compile(r"[^\n]*\n|[^\n]+")  # as Python splits lines: not at \x0c or \u2028
_INDENT = re.compile(r"[ \t]*")


def _lines(text: str) -> list[str]:
    return _LINE.findall(text)


def common_indent(lines: Sequence[str]) -> str:
    """The indentation IPython removes from the cell: the first non-blank line's, when every
    non-blank line starts with it ("" otherwise, or when there is none)."""
    code_lines = [line for line in lines if line.strip()]
    if not code_lines:
        return ""
    match = _INDENT.match(code_lines[0])
    assert match is not None  # the pattern matches the empty string
    indent = match.group()
    return indent if all(line.startswith(indent) for line in code_lines) else ""


@dataclass(frozen=True, slots=True)  # one per cell: a notebook may have 100,000
class CellCode:
    """The Python code of one cell, as IPython (or, for a `.py` file it writes, Python) runs it."""

    number: int  # 1-based, counting every cell
    source: str  # the whole cell, as it is in the notebook
    head: str  # lines before the code, kept as they are: the `%%writefile` line
    indent: str  # removed from each line of the code that starts with it
    original_lines: tuple[str, ...]  # the code's lines as they are in the cell (only if `indent`)
    masked: MaskedCell  # the code without the indentation, its IPython syntax masked
    writes: str | None = None  # the file a `%%writefile` cell writes

    @property
    def head_lines(self) -> int:
        return self.head.count("\n")

    def _shift(self, line: int) -> int:
        """How many characters of the code's `line` (1-based) were removed at its start."""
        if not self.indent or not 1 <= line <= len(self.original_lines):
            return 0
        return len(self.indent) if self.original_lines[line - 1].startswith(self.indent) else 0

    def in_cell(self, line: int, column: int) -> tuple[int, int]:
        """A position in the code (as the rules see it) as a position in the cell."""
        return line + self.head_lines, column + self._shift(line)

    def in_code(self, line: int, column: int) -> tuple[int, int]:
        """The inverse of `in_cell`."""
        line -= self.head_lines
        return line, column - self._shift(line)

    def restore(self, code: str) -> str:
        """The cell's source with `code` (the code after migration, IPython syntax unmasked)."""
        if not self.indent:
            return self.head + code
        old = [line.removeprefix(self.indent) for line in self.original_lines]
        new = _lines(code)
        kept: list[str] = []
        for tag, old_from, old_to, new_from, new_to in line_opcodes(old, new):
            if tag == "equal":
                kept += self.original_lines[old_from:old_to]
            else:
                kept += [self.indent + line if line.strip() else line for line in new[new_from:new_to]]
        return self.head + "".join(kept)


@dataclass(frozen=True)
class SkippedCell:
    """A code cell that is not Python to tf24migrate, with the reason, for the user."""

    number: int
    source: str
    reason: str  # "a %%bash cell"


def writefile_target(magic_line: str) -> str | None:
    """The file a `%%writefile [-a] name` line writes (None when it names none)."""
    try:
        words = shlex.split(magic_line.strip().removeprefix("%%writefile"))
    except ValueError:  # an unclosed quote: IPython refuses it too
        return None
    names = [word for word in words if word not in ("-a", "--append")]
    return names[-1] if len(names) == 1 else None


def _code(number: int, source: str, head: int = 0, writes: str | None = None) -> CellCode:
    lines = _lines(source)
    indent = common_indent(lines)
    body = lines[head:]
    # most cells: the source itself, not a copy
    dedented = "".join(line.removeprefix(indent) for line in body) if indent or head else source
    masked = mask(dedented) if writes is None else MaskedCell(dedented, ())
    original_lines = tuple(body) if indent else ()  # read only to put the indentation back
    return CellCode(number, source, "".join(lines[:head]), indent, original_lines, masked, writes)


def classify(number: int, source: str) -> CellCode | SkippedCell | None:
    """What the code cell `source` (the `number`th cell) is; None for an empty cell."""
    if not source.strip():
        return None
    lines = _lines(source)
    indent = common_indent(lines)
    dedented = "".join(line.removeprefix(indent) for line in lines)
    if is_python_cell(dedented):
        return _code(number, source)
    magic = cell_magic(dedented)
    if magic != "writefile":
        return SkippedCell(number, source, f"a %%{magic} cell")
    first = next(index for index, line in enumerate(lines) if line.strip())
    target = writefile_target(lines[first].removeprefix(indent).rstrip("\r\n"))
    if target is None or not target.endswith(".py"):
        return SkippedCell(
            number, source, f"a %%writefile cell writing {target or 'no file'}, not a .py file"
        )
    return _code(number, source, head=first + 1, writes=target)
