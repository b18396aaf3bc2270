"""`--add-noqa` (as ruff's): a `# noqa: CODE` comment written on each line with a finding left, so
that a team adopting the tool accepts what is there today and sees only what comes next.

A finding is left when this run does not fix it (a report-only rule, a fix the target or
`--unsafe-fixes` holds back); fixable findings are left to `--write`. The comment goes at the end
of the finding's first line, else of its last (the suppression is read on either:
`engine.suppressions`), where a comment can end the line: not inside a string that goes on, nor
after a `\\` that joins the next line. A line's `# noqa: ...` list is extended, so one comment
holds every code. Python files only: a notebook's cell or a C source is left as it is, and said.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable

from tf24migrate.model.findings import Finding

_CODE = re.compile(r"[A-Za-z0-9_-]+")
_NOQA = re.compile(
    r"#\s*noqa\s*:\s*[A-Za-z0-9_-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+|[ \t]+[A-Za-z0-9_-]+)*", re.I
)


def _comment_lines(source: str) -> set[int] | None:
    """The lines (1-based) at whose end a comment can be written: those that end a token line
    (`NEWLINE`, `NL`, or a comment); None when the source does not tokenize."""
    ends: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT):
                ends.add(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        return None
    return ends


def with_noqa(source: str, findings: Iterable[Finding]) -> tuple[str, int, list[Finding]]:
    """`source` with a `# noqa:` comment for each of `findings` (the codes of one line in one
    comment); the number of codes added, and the findings no line could take."""
    ends = _comment_lines(source)
    if ends is None:
        return source, 0, list(findings)
    codes: dict[int, list[str]] = {}
    skipped = []
    for finding in findings:
        line = next((n for n in (finding.line, finding.end_line) if n in ends), None)
        if line is None:
            skipped.append(finding)
        elif finding.code not in codes.setdefault(line, []):
            codes[line].append(finding.code)
    lines = source.splitlines(keepends=True)
    added = 0
    for number, line_codes in codes.items():
        text = lines[number - 1]
        body = text.rstrip("\r\n")
        ending = text[len(body) :]
        existing = _NOQA.search(body)
        there = (
            set()
            if existing is None
            else {c.upper() for c in _CODE.findall(existing.group().split(":", 1)[1])}
        )
        new = [code for code in line_codes if code not in there]
        if not new:
            continue
        added += len(new)
        if existing is not None:
            body = f"{body[: existing.end()]}, {', '.join(new)}{body[existing.end() :]}"
        else:
            body = f"{body}  # noqa: {', '.join(new)}"
        lines[number - 1] = body + ending
    return "".join(lines), added, skipped


def add_noqa(path: str, findings: Iterable[Finding]) -> tuple[int, list[Finding]]:
    """Write `with_noqa` into the Python file `path`, unless it changed since it was read (then
    nothing is written: `ChangedOnDisk`); the number of codes added and the findings left out.
    Raises `OSError` or `UnreadableFile` when the file cannot be read or written."""
    from tf24migrate.run.files import digest, read_regular_file, write_source
    from tf24migrate.run.migrate_file import decode_file

    raw = read_regular_file(path)[0]
    source = decode_file(path, raw)
    text, added, skipped = with_noqa(source.text, findings)
    if added:
        write_source(path, text, source.encoding, expected_digest=digest(raw))
    return added, skipped
