"""Encoding a migrated text so that every byte outside its edits stays the file's own, for the
codecs where decoding and encoding again is not the identity."""

from __future__ import annotations

from collections.abc import Callable


class LinesNotKept(ValueError):
    """The file's lines cannot be told apart in its bytes, so its edits cannot be spliced in."""


# Codecs for which decoding and encoding again is always the identity (by `codecs.lookup` name):
# their files need not be read again to be written.
_ROUND_TRIP = frozenset({"utf-8", "utf-8-sig", "ascii", "iso8859-1", "latin-1"})


def round_trips(encoding: str) -> bool:
    import codecs

    return codecs.lookup(encoding).name in _ROUND_TRIP


def encoded_like(text: str, encoding: str, raw: Callable[[], bytes]) -> bytes:
    """`text` encoded as `encoding` for a file whose bytes are `raw()`: as it is for a codec that
    round-trips (`raw` is not even called), else `encoded_keeping` those bytes (`LinesNotKept`,
    `UnicodeEncodeError` as there). What a write puts in the file, and a run on stdin prints."""
    return text.encode(encoding) if round_trips(encoding) else encoded_keeping(raw(), text, encoding)


def encoded_keeping(raw: bytes, text: str, encoding: str) -> bytes:
    """`text` encoded as `encoding`, every line it shares with `raw` (the file's bytes now) kept
    as `raw`'s own bytes. Decoding and encoding again is not the identity for some codecs (Big5,
    CP932's NEC rows, Johab, UTF-7, ISO-2022-JP, `unicode_escape`): for them the edited lines
    are encoded and spliced between the original bytes of the others, and the result must decode
    to `text`; `LinesNotKept` when the lines cannot be kept apart so. `UnicodeEncodeError` when
    `text` does not fit in `encoding`."""
    data = text.encode(encoding)
    old = raw.decode(encoding)
    if old.encode(encoding) == raw:
        return data
    import difflib

    raw_lines, old_lines, new_lines = raw.split(b"\n"), old.split("\n"), text.split("\n")
    refused = LinesNotKept(
        f"its encoding ({encoding}) does not give back the same bytes when decoded and encoded "
        "again, and its edited lines cannot be written apart from the others: nothing written"
    )
    if len(raw_lines) != len(old_lines) or any(
        line.decode(encoding, "replace") != decoded
        for line, decoded in zip(raw_lines, old_lines, strict=True)
    ):
        raise refused
    spliced: list[bytes] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            spliced += raw_lines[old_start:old_end]
        elif tag == "replace" and old_end - old_start == new_end - new_start:  # edited in place
            spliced += [
                _line_keeping(raw_lines[old_start + offset], old_lines[old_start + offset], line, encoding)
                for offset, line in enumerate(new_lines[new_start:new_end])
            ]
        else:
            spliced += [line.encode(encoding) for line in new_lines[new_start:new_end]]
    data = b"\n".join(spliced)
    if data.decode(encoding, "replace") != text:
        raise refused
    return data


def _line_keeping(raw: bytes, old: str, new: str, encoding: str) -> bytes:
    """The edited line `new` encoded, each run of characters it shares with `old` kept as the
    bytes of `raw` (which decodes to `old`) that spell them; the whole line encoded when a
    stateful codec does not let characters map to bytes one by one."""
    import codecs
    import difflib

    decoder = codecs.getincrementaldecoder(encoding)()
    ends = [0]  # ends[i]: the byte offset where the first i characters end
    for index in range(len(raw)):
        for _ in decoder.decode(raw[index : index + 1]):
            ends.append(index + 1)
    if len(ends) != len(old) + 1:
        return new.encode(encoding)
    ends[-1] = len(raw)  # with the bytes that end the line without a character (a shift back)
    parts = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            parts.append(raw[ends[old_start] : ends[old_end]])
        else:
            parts.append(new[new_start:new_end].encode(encoding))
    line = b"".join(parts)
    return line if line.decode(encoding, "replace") == new else new.encode(encoding)
