"""What a rule's `requires` and `triggers` are made of: a `Needle`, a literal string or a `Pattern`.

A pattern is a regular expression that names the literals each of its matches holds, and is
searched for only on the lines holding one of them: `str.find` over a TF source costs about a
hundredth of a regular expression that starts with `\\b` or a lookbehind, which Python's `re`
tries at every position of the text. Its own module so that the generated trigger table can
build patterns without importing the prefilter that reads the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class Pattern:
    """A regular expression (`regex`, text) that matches within one line only, each match holding
    one of `literals`: it is searched for only on the lines where one of them occurs."""

    __slots__ = ("literals", "regex")

    def __init__(self, regex: str, *literals: str) -> None:
        if not literals:
            raise ValueError(f"Pattern({regex!r}) names no literal its matches hold")
        self.regex = re.compile(regex)
        self.literals = literals

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pattern) and (self.regex, self.literals) == (other.regex, other.literals)

    def __hash__(self) -> int:
        return hash((self.regex, self.literals))

    def __repr__(self) -> str:  # as Python code (the trigger table is generated from it)
        regex = self.regex.pattern
        raw = '"' not in regex and not regex.endswith("\\")
        code = 'r"' + regex + '"' if raw else quoted(regex)
        return f"Pattern({', '.join([code, *map(quoted, self.literals)])})"

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches in `text`, line by line, the lines holding a literal only (in no order)."""
        searched: set[int] = set()  # the lines searched, by where they start
        for literal in self.literals:
            at = text.find(literal)
            while at >= 0:
                start = text.rfind("\n", 0, at) + 1
                end = text.find("\n", at)
                end = len(text) if end < 0 else end
                if start not in searched:
                    searched.add(start)
                    yield from self.regex.finditer(text, start, end)
                at = text.find(literal, end)

    def search(self, text: str) -> bool:
        return next(self.finditer(text), None) is not None


Needle = str | Pattern


def quoted(text: str) -> str:  # as ruff formats it: double quotes unless the text holds one
    code = repr(text)
    return f'"{code[1:-1]}"' if '"' not in text and code.startswith("'") else code
