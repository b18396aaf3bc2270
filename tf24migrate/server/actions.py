"""Code actions: a finding's fix as a quick fix (an unsafe one only where the configuration applies
unsafe fixes, and then titled as such), every fix of a document at once
(`source.fixAll.tf24migrate`), and a finding silenced by the project's suppression comment
(`# tf24migrate: ignore[CODE]`, `//` in C and C++) at the end of its line.

Each edit is computed from a migration of the document's text as the server holds it: a quick fix
from the text migrated with every other fix declined (as `--interactive` shows one change), so it
brings along only what that fix needs (an import), whole changed lines at a time.
"""

from __future__ import annotations

import re
import tokenize
from collections.abc import Iterator
from itertools import chain, islice

from lsprotocol import types

from tf24migrate.model.findings import Finding, Fix
from tf24migrate.server.documents import Lines, decode, encode, line_starts

FIX_ALL = "source.fixAll.tf24migrate"
# A quick fix costs a migration of its own: over a range with more fixes than this (a whole file
# selected), each finding gets its suppression only, and the fix-all action does the rest.
MOST_QUICK_FIXES = 10
Edits = dict[str, list[types.TextEdit]]  # by document uri

_SUPPRESSION_CODES = re.compile(r"tf24migrate:\s*ignore\[([^\]]*)\]", re.IGNORECASE)


def quick_fix(finding: Finding, diagnostic: types.Diagnostic, edits: Edits) -> types.CodeAction:
    unsafe = finding.fix is Fix.UNSAFE
    return types.CodeAction(
        title=f"tf24migrate: fix {finding.code} ({finding.name})"
        + (" - unsafe fix: may change behaviour" if unsafe else ""),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes=edits),
        is_preferred=not unsafe,
    )


def fix_all(edits: Edits, unsafe_fixes: bool) -> types.CodeAction:
    what = "safe and unsafe fixes (unsafe-fixes is on)" if unsafe_fixes else "safe fixes"
    return types.CodeAction(
        title=f"tf24migrate: apply all {what} in this file",
        kind=FIX_ALL,
        edit=types.WorkspaceEdit(changes=edits),
    )


def suppress(
    finding: Finding, diagnostic: types.Diagnostic, uri: str, lines: Lines, comment: str = "#"
) -> types.CodeAction | None:
    """Silence `finding` with a suppression comment on its first line (its last, when the first
    ends inside a string or with a line continuation); None when neither line can hold one."""
    inside = _lines_inside_strings(lines.data) if comment == "#" else frozenset()
    for number in dict.fromkeys((finding.line, finding.end_line)):
        end = lines.line_end(number)
        text = lines.line(number - 1)
        if number in inside or text.rstrip().endswith("\\"):
            continue
        existing = _SUPPRESSION_CODES.search(text)
        if existing is not None:  # `ignore[TF24101]` becomes `ignore[TF24101,TF24104]`
            at = lines.starts[number - 1] + len(encode(text[: existing.end(1)]))
            new_text = f",{finding.code}" if existing.group(1).strip() else finding.code
        else:
            at, new_text = end, f"  {comment} tf24migrate: ignore[{finding.code}]"
        position = lines.position(at)
        return types.CodeAction(
            title=f"tf24migrate: suppress {finding.code} on this line",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            edit=types.WorkspaceEdit(
                changes={
                    uri: [types.TextEdit(range=types.Range(start=position, end=position), new_text=new_text)]
                }
            ),
        )
    return None


def _lines_inside_strings(data: bytes) -> frozenset[int]:
    """The lines (1-based) whose end lies inside a string of `data` (a text as UTF-8): a comment
    there would be in the string. Kept for the last texts: a code action over a range asks it once
    per finding, and tokenizing a 5 MB module 236 times held the server for minutes. Kept by the
    text's length and hash, not the text: the text before a change stayed alive with it (10 MB
    more while a 5 MB document beyond Latin-1 was checked again)."""
    key = (len(data), hash(data))
    found = _INSIDE.pop(key, None)
    if found is None:
        found = _inside_strings(data)
    _INSIDE[key] = found  # the newest last
    while len(_INSIDE) > _KEPT:
        del _INSIDE[next(iter(_INSIDE))]
    return found


_KEPT = 4
_INSIDE: dict[tuple[int, int], frozenset[int]] = {}


def _inside_strings(data: bytes) -> frozenset[int]:
    inside: set[int] = set()
    starts: list[int] = []
    try:
        for token in tokenize.generate_tokens(_lines(data).__next__):
            name = tokenize.tok_name[token.type]
            if name == "FSTRING_START":  # Python 3.12 tokenizes f-strings in parts
                starts.append(token.start[0])
            elif name == "FSTRING_END" and starts:
                inside.update(range(starts.pop(), token.end[0]))
            elif token.type == tokenize.STRING:
                inside.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError, ValueError):
        pass
    return frozenset(inside)


def _lines(data: bytes) -> Iterator[str]:
    """The lines of `data` one at a time, each with its line end, as Python splits them, each
    decoded on its own: the whole text as `str` holds 4 bytes a character beyond the Basic
    Multilingual Plane (an `io.StringIO` does in any case: 20 MB more for a 5 MB module)."""
    starts = line_starts(data)
    ends = chain(islice(starts, 1, None), [len(data)])
    return (decode(data[start:end]) for start, end in zip(starts, ends, strict=True) if start < end)
