"""Notebook documents (LSP 3.17's `notebookDocument/*`): the cells the editor syncs, made into the
notebook the command line reads, and the migrated notebook taken back apart into cells.

Every cell is synced and kept in order, markdown too, so cells are numbered as the command numbers
them (from 1, every cell counted) and a finding's `cell` names the cell document it is shown in. A
code cell in another language than Python becomes a raw cell: numbered, never migrated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from lsprotocol import types

NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithNotebook(
            notebook=types.NotebookDocumentFilterNotebookType(notebook_type="jupyter-notebook")
        )
    ]
)


@dataclass(frozen=True)
class Cell:
    uri: str
    kind: types.NotebookCellKind
    language: str
    text: str

    @property
    def cell_type(self) -> str:
        if self.kind == types.NotebookCellKind.Markup:
            return "markdown"
        return "code" if self.language == "python" else "raw"


def notebook_text(cells: Sequence[Cell]) -> str:
    """The notebook (nbformat 4 JSON) the command line would read for these cells."""
    document = {
        "cells": [
            {"cell_type": cell.cell_type, "metadata": {}, "source": cell.text}
            | ({"execution_count": None, "outputs": []} if cell.cell_type == "code" else {})
            for cell in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, ensure_ascii=False)


def changed_cells(cells: Sequence[Cell], migrated: str) -> dict[str, tuple[str, str]]:
    """`{cell uri: (text, new text)}` for each cell whose source the migrated notebook changed."""
    sources = [cell["source"] for cell in json.loads(migrated)["cells"]]
    return {
        cell.uri: (cell.text, new)
        for cell, source in zip(cells, sources, strict=True)
        if (new := source if isinstance(source, str) else "".join(source)) != cell.text
    }
