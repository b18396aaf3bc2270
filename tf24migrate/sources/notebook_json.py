"""A notebook's JSON text: read and checked as a notebook tf24migrate can edit (`load`; a cell at a
time, `load_streaming`, so that a notebook of 100,000 cells never has all their JSON objects at
once), and edited in place (`replace_sources`).

`load` refuses, with the reason, what is not an nbformat 4 notebook whose cells can be read and
edited: invalid JSON, a key twice in one object (Python's reader keeps the last value, the span
editor would edit the first, so user code would be overwritten), a top level that is not an
object, cells that are not a list (nbformat 3 keeps them in worksheets), a cell that is not an
object or has no source, a source that is neither a string nor a list of strings, metadata that is
not an object.

The text is never re-serialized: only the `source` value of a changed cell is replaced, formatted
like the original (a list of lines, one per line of the file, or a single string; the same
separators, indentation and `ensure_ascii` choice; unchanged lines are copied byte for byte).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]  # public, missing from typeshed
from typing import TYPE_CHECKING

from tf24migrate.model.errors import SourceSyntaxError
from tf24migrate.rules.text import line_opcodes

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NON_ASCII_ESCAPE = re.compile(r"\\u(?!00[0-7])[0-9a-fA-F]{4}")  # `\u00e9`, not `\u001b`
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_CANNOT_EDIT = "not a notebook tf24migrate can edit: "
_JSON_TYPES = {dict: "a JSON object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _without_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object, refused when a key repeats."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return found


if TYPE_CHECKING:
    import decimal


def _json_type(value: object) -> str:
    return _JSON_TYPES.get(type(value), "a number")


def _number(text: str) -> int | decimal.Decimal:
    """A JSON integer; one longer than Python converts to `int` (4,300 digits) as a `Decimal`
    (metadata is read, never written back from its value)."""
    if len(text) < 4000:
        return int(text)
    import decimal

    return decimal.Decimal(text)


_DECODER = json.JSONDecoder(parse_int=_number)  # spans of values: numbers of any length


def load(text: str, path: str | None) -> dict:
    """The notebook in `text`; `SourceSyntaxError` saying why when it is not one to edit."""
    try:
        notebook = json.loads(text, object_pairs_hook=_without_duplicate_keys, parse_int=_number)
    except _DuplicateKey as error:
        raise SourceSyntaxError(
            f"{_CANNOT_EDIT}the key {error.key!r} appears twice in one JSON object, and "
            "readers disagree on which one counts; keep one and run again",
            (path, 1, 1, None),
        ) from None
    except json.JSONDecodeError as error:
        raise SourceSyntaxError(
            f"not a notebook: invalid JSON ({error.msg})", (path, error.lineno, error.colno, None)
        ) from None
    except RecursionError:
        raise SourceSyntaxError(
            f"{_CANNOT_EDIT}its JSON is nested too deep to read", (path, 1, 1, None)
        ) from None
    problem = _problem(notebook)
    if problem is not None:
        raise SourceSyntaxError(_CANNOT_EDIT + problem, (path, 1, 1, None))
    return notebook


_CHECKING = json.JSONDecoder(object_pairs_hook=_without_duplicate_keys, parse_int=_number)


def load_streaming(text: str, read_cell: Callable[[int, dict], None]) -> dict | None:
    """The notebook in `text` with its cells passed to `read_cell(index, cell)` one at a time,
    each decoded as `load` decodes it and then dropped (the notebook returned has no `"cells"`):
    a notebook of 100,000 cells never has all their JSON objects at once. None (after some cells
    were perhaps read) for any text that is not a plain notebook to edit: invalid JSON, a key twice,
    any problem `load` names. Read it with `load` then, for the same result or error."""
    try:
        index = _skip(text, 0)
        if text[index] != "{":
            return None
        notebook: dict = {}
        index = _skip(text, index + 1)
        while text[index] != "}":
            if text[index] != '"':
                return None
            key, index = scanstring(text, index + 1)
            index = _skip(text, index)
            if text[index] != ":" or key in notebook:
                return None
            index = _skip(text, index + 1)
            if key == "cells" and text[index] == "[":
                index = _read_cells(text, index, read_cell)
                if index < 0:
                    return None
                notebook[key] = []
            else:
                notebook[key], index = _CHECKING.raw_decode(text, index)
            index = _skip(text, index)
            if text[index] == ",":
                index = _skip(text, index + 1)
                if text[index] != '"':
                    return None
            elif text[index] != "}":
                return None
        if _skip(text, index + 1) != len(text) or _problem(notebook) is not None:
            return None
    except (ValueError, IndexError, RecursionError):  # _DuplicateKey and JSONDecodeError included
        return None
    del notebook["cells"]
    return notebook


def _read_cells(text: str, start: int, read_cell: Callable[[int, dict], None]) -> int:
    """Read the cells of the array at `start`; where it ends, or -1 at a cell that `load` refuses."""
    index, number = _skip(text, start + 1), 0
    if text[index] == "]":
        return index + 1
    while True:
        cell, index = _CHECKING.raw_decode(text, index)
        if _problem({"cells": [cell]}) is not None:
            return -1
        read_cell(number, cell)
        del cell
        number += 1
        index = _skip(text, index)
        if text[index] == "]":
            return index + 1
        if text[index] != ",":
            return -1
        index = _skip(text, index + 1)


def _problem(notebook: object) -> str | None:
    """Why `notebook` (parsed JSON) is not an nbformat 4 notebook to edit; None when it is one."""
    if not isinstance(notebook, dict):
        return f"the file is {_json_type(notebook).replace('a list', 'a JSON array')}, not an object"
    if "cells" not in notebook and "worksheets" in notebook:
        return (
            "nbformat 3 (cells in worksheets); convert it with `jupyter nbconvert --to notebook --nbformat 4`"
        )
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        return f'"cells" is {_json_type(cells)}, not a list' if "cells" in notebook else "it has no cells"
    if "metadata" in notebook and not isinstance(notebook["metadata"], dict):
        return f'"metadata" is {_json_type(notebook["metadata"])}, not an object'
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict):
            return f"cell {number} is {_json_type(cell)}, not a JSON object"
        if "source" not in cell:
            return f"cell {number} has no source"
        source = cell["source"]
        if isinstance(source, list):
            odd = [line for line in source if not isinstance(line, str)]
            if odd:
                return f"the source of cell {number} is a list holding {_json_type(odd[0])}"
        elif not isinstance(source, str):
            return f"the source of cell {number} is {_json_type(source)}, not text"
    return None


def _skip(text: str, index: int) -> int:
    match = _WHITESPACE.match(text, index)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _members(text: str, start: int) -> Iterator[tuple[str, int, int]]:
    """`(key, value_start, value_end)` of the JSON object whose `{` is at `start`."""
    index = _skip(text, start + 1)
    while text[index] == '"':
        key, index = scanstring(text, index + 1)
        index = _skip(text, _skip(text, index) + 1)  # past the colon
        end = _DECODER.raw_decode(text, index)[1]
        yield key, index, end
        index = _skip(text, end)
        index = _skip(text, index + 1) if text[index] == "," else index


def _items(text: str, start: int) -> list[tuple[int, int]]:
    """`(start, end)` of each item of the JSON array whose `[` is at `start`."""
    return list(_item_spans(text, start))


def _item_spans(text: str, start: int) -> Iterator[tuple[int, int]]:
    index = _skip(text, start + 1)
    while text[index] != "]":
        end = _DECODER.raw_decode(text, index)[1]
        yield index, end
        index = _skip(text, end)
        index = _skip(text, index + 1) if text[index] == "," else index


def _source_spans(text: str, wanted: Collection[int]) -> dict[int, tuple[int, int]]:
    """Where the `source` value of each cell of `wanted` (by index) lies in the notebook's JSON text."""
    top = _skip(text, 0)
    cells_start = next(start for key, start, _ in _members(text, top) if key == "cells")
    spans = {}
    for index, (cell_start, _) in enumerate(_item_spans(text, cells_start)):
        if index in wanted:
            span = next(((s, e) for key, s, e in _members(text, cell_start) if key == "source"), None)
            assert span is not None  # the cells given are those with a source
            spans[index] = span
    return spans


def _uses_ascii_escapes(text: str) -> bool:
    """Whether the file escapes non-ASCII characters (`json.dumps(ensure_ascii=True)`)."""
    return text.isascii() and _NON_ASCII_ESCAPE.search(text) is not None


def _encode_lines(text: str, start: int, end: int, new_source: str, ascii_only: bool) -> str:
    """A new list-of-lines `source` value laid out like the one at `text[start:end]`."""
    items = _items(text, start)
    old_lines = [json.loads(text[s:e]) for s, e in items]
    opening = text[start + 1 : items[0][0]]
    closing = text[items[-1][1] : end - 1]
    separator = text[items[0][1] : items[1][0]] if len(items) > 1 else "," + opening
    new_lines = _LINE.findall(new_source)  # at "\n" only, as nbformat splits (not at U+2028 or \f)
    tokens: list[str] = []
    for tag, old_from, old_to, new_from, new_to in line_opcodes(old_lines, new_lines):
        if tag == "equal":  # unchanged lines are copied, escapes and all
            tokens.extend(text[s:e] for s, e in items[old_from:old_to])
        else:
            tokens.extend(json.dumps(line, ensure_ascii=ascii_only) for line in new_lines[new_from:new_to])
    return "[" + opening + separator.join(tokens) + closing + "]"


def replace_sources(text: str, new_sources: dict[int, str]) -> str:
    """`text` with the `source` of each cell in `new_sources` (by index) replaced."""
    spans = _source_spans(text, new_sources)
    ascii_only = _uses_ascii_escapes(text)
    pieces, done = [], 0
    for index in sorted(new_sources):
        start, end = spans[index]
        if text[start] == "[":
            value = _encode_lines(text, start, end, new_sources[index], ascii_only)
        else:
            value = json.dumps(new_sources[index], ensure_ascii=ascii_only)
        pieces += [text[done:start], value]
        done = end
    return "".join([*pieces, text[done:]])
