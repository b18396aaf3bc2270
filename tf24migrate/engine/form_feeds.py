"""LibCST drops a form feed from the indentation of a line that starts a statement, past the first
of a block (`parse_module("x = 1\\n\\fy = 2\\n").code == "x = 1\\ny = 2\\n"`): put it back in
generated code, on the lines that correspond to source lines indented with one.

Only source text holding such a form feed is aligned (a line diff of the statement), so the cost
is nil elsewhere.
"""

from __future__ import annotations

import re

from tf24migrate.rules.text import line_opcodes, split_lines

_FORM_FEED_INDENT = re.compile(r"^[ \t]*\f", re.MULTILINE)
_INDENT = re.compile(r"[ \t\f]*")


def with_form_feeds(original: str, generated: str) -> str:
    """`generated` (LibCST's code for `original`, changed by fixes) with the form feeds of
    `original`'s indentation back on the lines kept or changed in place."""
    if not _FORM_FEED_INDENT.search(original):
        return generated
    old, new = split_lines(original), split_lines(generated)
    without = [_without_form_feeds(line) for line in old]
    out = list(new)
    for tag, i1, i2, j1, j2 in line_opcodes(without, new):
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                before, after = _indent(old[i]), _indent(new[j])
                if "\f" in before and _after_form_feeds(before) == after:
                    out[j] = before + new[j][len(after) :]
    return "".join(out)


def _without_form_feeds(line: str) -> str:
    indent = _indent(line)
    return _after_form_feeds(indent) + line[len(indent) :]


def _after_form_feeds(indent: str) -> str:
    """What counts of an indentation: Python's tokenizer starts counting again after a form feed."""
    return indent.rpartition("\f")[2]


def _indent(line: str) -> str:
    match = _INDENT.match(line)
    assert match is not None  # it matches the empty string
    return match.group()
