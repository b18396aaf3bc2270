"""Rewrites keep the file's layout: every comment survives except on a line the fix deletes."""

from __future__ import annotations

import difflib
import io
import tokenize

import pytest

from tf24migrate import migrate_source
from tf24migrate.dev.fixtures import all_cases

CASES = all_cases()


def _comments(source: str) -> dict[int, str]:
    """`{line: comment}` of a Python source, by tokenizing it."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {token.start[0]: token.string for token in tokens if token.type == tokenize.COMMENT}


def _code(line: str, comment: str | None) -> str:
    """A line without its comment and whitespace, for matching lines across a rewrite."""
    if comment is not None:
        line = line[: line.rindex(comment)]
    return "".join(line.split())


def lost_comments(before: str, after: str) -> list[str]:
    """The comments of `before` missing from their line in `after`, other than those on lines the
    rewrite deleted. Lines are matched by their code (comments and whitespace left out): a line
    whose code is unchanged keeps its comment; among lines the rewrite changed, a comment may
    vanish only when the rewrite left fewer lines there, one comment per deleted line."""
    old_lines, new_lines = before.splitlines(), after.splitlines()
    old_comments, new_comments = _comments(before), _comments(after)
    old_code = [_code(line, old_comments.get(n)) for n, line in enumerate(old_lines, 1)]
    new_code = [_code(line, new_comments.get(n)) for n, line in enumerate(new_lines, 1)]
    lost = []
    matcher = difflib.SequenceMatcher(None, old_code, new_code, autojunk=False)
    changed = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    # A comment may move with its argument, to another changed place.
    moved = [
        new_comments[n + 1] for _, _, _, j1, j2 in changed for n in range(j1, j2) if n + 1 in new_comments
    ]
    for tag, old_from, old_to, new_from, new_to in matcher.get_opcodes():
        if tag == "equal":
            for old, new in zip(range(old_from, old_to), range(new_from, new_to), strict=True):
                if old + 1 in old_comments and old_comments[old + 1] != new_comments.get(new + 1):
                    lost.append(f"line {old + 1}: {old_comments[old + 1]}")
            continue
        vanished = []
        for old in range(old_from, old_to):
            comment = old_comments.get(old + 1)
            if comment is not None and comment in moved:
                moved.remove(comment)
            elif comment is not None:
                vanished.append(f"line {old + 1}: {comment}")
        if len(vanished) > (old_to - old_from) - (new_to - new_from):
            lost.extend(vanished)
    return lost


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_keeps_its_comments(case):
    source = case.input.read_text(encoding="utf-8")
    result = migrate_source(source, **case.options())
    # TF24801's fix rewrites the code spans of comments: exactly the lines it fixed may differ.
    rewritten = {f.line for f in result.findings if f.code == "TF24801" and f.applied}
    lost = [
        entry for entry in lost_comments(source, result.code) if int(entry.split(":")[0][5:]) not in rewritten
    ]
    assert lost == []


def test_the_invariant_sees_a_comment_moved_onto_a_kept_line():
    before = "f(\n    opt,  # inner optimizer\n    loss_scale='dynamic',  # scale\n)\n"
    assert lost_comments(before, "g(\n    opt,  # scale\n)\n") == ["line 2: # inner optimizer"]
    assert lost_comments(before, "g(\n    opt,  # inner optimizer\n)\n") == []


def test_unsafe_policy_fix_message_quotes_what_a_person_would_write():
    source = "import tensorflow as tf\n\npolicy = tf.keras.mixed_precision.experimental.Policy(\n    'mixed_float16', loss_scale=1024)\n"
    (finding,) = migrate_source(source, select="TF24301").findings
    assert (
        "Unsafe fix (apply with --unsafe-fixes): `tf.keras.mixed_precision.Policy('mixed_float16')`"
        in finding.details
    )
