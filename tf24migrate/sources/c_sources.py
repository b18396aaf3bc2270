"""The report-only pass over C and C++ sources: removed C API names used in code.

A rule takes part by declaring `Rule.c_identifiers` (`{identifier: message}`). The scanner blanks out
comments, string and character literals (keeping every offset), finds the identifiers as whole
words in what is left, and reports each with the rule's message. The text is never changed.
`// tf24migrate: ignore[CODE]` on a line suppresses it there, as in Python.
"""

from __future__ import annotations

import bisect
import re

from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine.suppressions import is_suppressed, line_suppressions
from tf24migrate.model.findings import MigrationResult, Span

_RAW_STRING = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')
_NEWLINE = re.compile(r"\r\n?|\n")


def code_only(text: str) -> str:
    """`text` with comments and string/character literals replaced by spaces (newlines kept)."""
    out = list(text)
    length = len(text)
    index = 0

    def blank(start: int, end: int) -> None:
        for position in range(start, min(end, length)):
            if out[position] not in "\r\n":
                out[position] = " "

    while index < length:
        char = text[index]
        if text.startswith("//", index):
            end = index
            while end < length and text[end] not in "\r\n":
                # A backslash at the end of the line continues a `//` comment.
                end += 2 if text[end] == "\\" and end + 1 < length else 1
            blank(index, end)
            index = end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end == -1 else end + 2
            blank(index, end)
            index = end
        elif char == '"' or (char == "R" and _RAW_STRING.match(text, index)):
            raw = _RAW_STRING.match(text, index) if char == "R" else None
            if raw is not None:
                end = text.find(f'){raw.group(1)}"', raw.end())
                end = length if end == -1 else end + len(raw.group(1)) + 2
            else:
                end = _end_of_quoted(text, index, '"')
            blank(index, end)
            index = end
        elif char == "'" and not (index > 0 and text[index - 1].isalnum() and _in_number(text, index)):
            end = _end_of_quoted(text, index, "'")
            blank(index, end)
            index = end
        else:
            index += 1
    return "".join(out)


def _end_of_quoted(text: str, start: int, quote: str) -> int:
    """The offset after the literal starting at `start`; an unterminated one ends at the line end."""
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
        elif char == quote:
            return index + 1
        elif char in "\r\n":
            return index
        else:
            index += 1
    return len(text)


def _in_number(text: str, index: int) -> bool:
    """Whether the `'` at `index` is a C++14 digit separator (`1'000'000`)."""
    start = index
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "'."):
        start -= 1
    return text[start].isdigit()


def scan_c_source(text: str, settings: Settings, *, path: str | None = None) -> MigrationResult:
    """Report the `c_identifiers` of the rules used in the code of a C or C++ source; never rewrites."""
    wanted = {
        identifier: (rule, message)
        for rule in settings.rules
        for identifier, message in rule.c_identifiers.items()
        if identifier in text
    }
    if not wanted:
        return MigrationResult(source=text, code=text)
    target = settings.target
    code = code_only(text)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, wanted)) + r")\b")
    line_starts = [0] + [match.end() for match in _NEWLINE.finditer(text)]
    suppressions = line_suppressions(text)
    findings = []
    for match in pattern.finditer(code):
        rule, message = wanted[match.group(1)]
        line = bisect.bisect_right(line_starts, match.start())
        column = match.start() - line_starts[line - 1] + 1
        span = Span(line, column, line, column + len(match.group(1)))
        if is_suppressed(span, rule.code, suppressions):
            continue
        findings.append(rule.finding(span, message, target=target, path=path))
    return MigrationResult(source=text, code=text, findings=tuple(findings))
