"""The rules' pages the diagnostics link to: what `tf24migrate --explain CODE` prints (for a note,
its description), written by the worker once per server into a folder of its own. Apart from
`diagnostics`, which needs lsprotocol: the worker writes pages without loading it.
"""

from __future__ import annotations

import os

from tf24migrate.model.notes import NOTES_BY_CODE


def page_path(folder: str, code: str) -> str:
    return os.path.join(folder, f"{code}.md")


def page_text(code: str) -> str:
    """The page of the rule (or note) `code`: what `--explain` says of it."""
    if code in NOTES_BY_CODE:
        note = NOTES_BY_CODE[code]
        return f"{note.code} {note.name}\n\n{note.description}\n"
    from tf24migrate.catalogue.entries import explanation, find_entry

    return explanation(find_entry(code)) + "\n"
