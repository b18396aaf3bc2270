"""A big text holding a character beyond the Basic Multilingual Plane (an emoji) costs Python 4
bytes for each of its characters, and the worker holds two such texts at its peak: the job's and
the migrated one (40 MB for a 5 MB module, 8x by themselves). The worker migrates such a text with
each of those characters stood for by a character of the Private Use Area the text does not use
(2 bytes a character), and puts them back in what it answers (`Narrowed.widen`): the same number
of characters, so every line and column is the same. Those characters stand only in comments,
strings and docstrings, where no rule reads them; one in a name (`𝑥 = 1`) makes the stand-in text
fail to parse, and the worker then migrates the text itself (`worker._migrate_narrowed`).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable

from tf24migrate.model.findings import Finding

_BEYOND_THE_PLANE = re.compile("[\U00010000-\U0010ffff]")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
_STAND_INS = range(0xE000, 0xF900)


# The characters widened and encoded at a time (`Narrowed.encode`).
_PIECE = 1 << 16


@dataclasses.dataclass(frozen=True)
class Narrowed:
    """How a text's characters beyond the plane are stood for (`narrow`): `back` maps each
    stand-in to the character it stands for."""

    back: dict[str, str]

    def widen(self, text: str) -> str:
        """`text` (the stand-in text, or one made from it) with the characters put back."""
        return self._pattern.sub(lambda match: self.back[match.group()], text)

    def encode(self, text: str) -> bytearray:
        """`text` widened, as UTF-8, a piece at a time: the widened text is never whole as `str`
        (4 bytes a character)."""
        data = bytearray()
        for start in range(0, len(text), _PIECE):
            data += self.widen(text[start : start + _PIECE]).encode("utf-8", "surrogatepass")
        return data

    def widen_findings(self, findings: Iterable[Finding]) -> tuple[Finding, ...]:
        """`findings` with the characters put back in what they quote of the code."""
        return tuple(
            dataclasses.replace(
                finding,
                message=self.widen(finding.message),
                details=finding.details and self.widen(finding.details),
                evidence=finding.evidence and self.widen(finding.evidence),
            )
            for finding in findings
        )

    @functools.cached_property
    def _pattern(self) -> re.Pattern[str]:
        return re.compile("[" + "".join(self.back) + "]")


def narrow(text: str) -> tuple[str, Narrowed] | None:
    """`text` with each character beyond the plane stood for by one of the Private Use Area it
    does not use, and how to put them back; None when it has none (or more kinds than there are
    stand-ins left)."""
    if text.isascii():
        return None
    wide = {match.group() for match in _BEYOND_THE_PLANE.finditer(text)}
    if not wide:
        return None
    taken = {match.group() for match in _PRIVATE_USE.finditer(text)}
    free = (chr(point) for point in _STAND_INS if chr(point) not in taken)
    forth = dict(zip(sorted(wide), free, strict=False))
    if len(forth) < len(wide):
        return None
    narrowed = _BEYOND_THE_PLANE.sub(lambda match: forth[match.group()], text)
    return narrowed, Narrowed({stand_in: character for character, stand_in in forth.items()})
