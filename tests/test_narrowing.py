"""The worker's stand-ins for characters beyond the Basic Multilingual Plane (`server.narrowing`):
a text at 2 bytes a character, the same length, and every character back where it was."""

from __future__ import annotations

import sys

from tf24migrate.model.findings import Finding, Severity
from tf24migrate.server.narrowing import narrow

TEXT = 'x = "😀 \ue000"  # 🎉 😀\ny = "𝑥"\n'


def test_the_stand_ins_are_narrow_unused_and_put_back():
    narrowed, how = narrow(TEXT)
    assert len(narrowed) == len(TEXT) and narrowed.splitlines() != TEXT.splitlines()
    assert max(narrowed) <= "\uffff" and sys.getsizeof(narrowed) < sys.getsizeof(TEXT)
    assert "\ue000" not in how.back  # a character of the Private Use Area the text uses stays itself
    assert how.widen(narrowed) == TEXT
    assert bytes(how.encode(narrowed)) == TEXT.encode("utf-8")


def test_a_finding_quoting_the_text_is_put_back():
    narrowed, how = narrow(TEXT)
    quoted = narrowed.splitlines()[0]
    finding = Finding(
        "TF24101", "x", 1, 1, 1, 5, f"`{quoted}` ...", Severity.ERROR, None, False, evidence=quoted
    )
    (back,) = how.widen_findings([finding])
    assert back.message == f"`{TEXT.splitlines()[0]}` ..." and back.evidence == TEXT.splitlines()[0]


def test_a_text_within_the_plane_is_left_alone():
    assert narrow("x = 'λ'\n") is None
    assert narrow("x = 1\n") is None
