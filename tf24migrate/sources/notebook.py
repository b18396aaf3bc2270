"""Jupyter notebooks (`.ipynb`): migrating the code cells while leaving the rest of the file alone.

The code cells of a Python notebook are migrated as one module, so an import in an early cell
resolves names in later cells: each cell's source, with its IPython syntax masked
(`ipython_syntax`), is joined with a marker statement between cells, the engine runs once, and
the result is split at the markers back into cells. Findings are mapped back to their cell.
An IPython line keeps its text, so a fix that would take a name it uses out of the module (an
import renamed, or removed once the code's uses are rewritten) is declined: reported, not applied.

What a cell is follows IPython (`notebook_cells`): a cell indented as a whole is dedented, as
IPython runs it, and re-indented on the way back; a `%%writefile name.py` cell holds a Python file,
so its body is migrated as a module of its own (its names are not the notebook's), the magic line
left alone; a fix there that would rebind a name the notebook's own cells import from that file
(`from utils import mp`, `%run utils.py`) is reported instead, as for a Python file's importers.

Cells are numbered from 1 counting every cell (markdown and raw too), in file order: "cell 3" is
the third cell from the top, whatever its type; lines count from the cell's first line, the
`%%writefile` line included. Left out, and never changed: cells that are not code, empty cells,
cells that do not parse (each reported as `NOTEBOOK_CELL_SYNTAX`, an error), and cells whose cell
magic makes them something else than Python (`%%bash`, `%%html`, `%%writefile notes.txt`), each
with an info note (`NOTEBOOK_CELL_SKIPPED`) when it names something a rule looks for. A notebook
whose kernel is not Python is skipped with an info note (`NOTEBOOK_NOT_PYTHON`). The notes are
defined in `tf24migrate.model.notes`.

The notebook's JSON text is read, checked and edited in place by `notebook_json`: only the
`source` value of a changed cell is replaced, so a text diff of the file shows only the changed
source lines. The marker between cells is a name no cell holds (`__tf24m_cell_1__`, else
`__tf24m1_cell_1__`...), as is the placeholder of an IPython line (`ipython_syntax`).
"""

from __future__ import annotations

import ast
import bisect
import json
import os
import re
from collections.abc import Sequence
from dataclasses import replace

from tf24migrate.catalogue.prefilter import could_fire, rules_that_could_fire
from tf24migrate.catalogue.settings import Settings
from tf24migrate.model.errors import RuleError, SourceSyntaxError
from tf24migrate.model.findings import Finding, MigrationResult
from tf24migrate.model.notes import (
    NOTEBOOK_CELL_SKIPPED,
    NOTEBOOK_CELL_SYNTAX,
    NOTEBOOK_NOT_PYTHON,
    note_finding,
)
from tf24migrate.rules.base import Rule
from tf24migrate.rules.text import IDENTIFIER, parse_python
from tf24migrate.sources.ipython_syntax import absent_name, unmask
from tf24migrate.sources.module_names import cells_code, imports_of, rebound
from tf24migrate.sources.notebook_cells import CellCode, SkippedCell, classify
from tf24migrate.sources.notebook_json import load, load_streaming, replace_sources
from tf24migrate.sources.notebook_markdown import markdown_readers, migrate_markdown


def kernel_language(notebook: dict) -> str | None:
    """The notebook's language from its metadata (`"python"`, `"R"`, ...), None when not recorded."""
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str):
            return section[field]
    kernelspec = metadata.get("kernelspec")
    if isinstance(kernelspec, dict) and isinstance(kernelspec.get("name"), str):
        return "python" if "py" in kernelspec["name"].lower() else kernelspec["name"]
    return None


def _cell_source(cell: dict, kinds: tuple[str, ...] = ("code",)) -> str | None:
    """The source of a cell of one of `kinds` (`notebook_json.load` checked it is text)."""
    if cell.get("cell_type") not in kinds:
        return None
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _syntax_note(cell: CellCode, line: int | None, column: int | None, problem: str, path) -> Finding:
    """`line` and `column` are in the cell's code (as parsed)."""
    message = f"cell not migrated: {problem}. Fix the cell and run tf24migrate again (the other cells were)."
    line, column = cell.in_cell(line or 1, column or 1)
    return note_finding(NOTEBOOK_CELL_SYNTAX, message, path=path, cell=cell.number, line=line, column=column)


def _skipped_note(cell: SkippedCell, path: str | None) -> Finding:
    message = f"cell {cell.number} is {cell.reason}: not migrated"
    return note_finding(NOTEBOOK_CELL_SKIPPED, message, path=path, cell=cell.number, line=1, column=1)


def _python_syntax_error(cell: CellCode) -> SyntaxError | None:
    try:
        parse_python(cell.masked.code)
    except SyntaxError as error:
        return error
    except (ValueError, RecursionError) as error:
        return SyntaxError(str(error), (None, 1, 1, None))
    return None


def _join(cells: Sequence[CellCode]) -> tuple[str, list[int], str]:
    """One module from the cells' masked code, a marker line before each cell but the first;
    with the line on which each cell starts, and the marker's name (one no cell holds)."""
    marker = absent_name("".join(cell.masked.code for cell in cells), "cell")
    parts: list[str] = []
    starts: list[int] = []
    line = 1
    for index, cell in enumerate(cells):
        if index:
            parts.append(f"{marker}{index}__\n")
            line += 1
        starts.append(line)
        code = cell.masked.code if cell.masked.code.endswith("\n") else cell.masked.code + "\n"
        parts.append(code)
        line += code.count("\n")
    return "".join(parts), starts, marker


def _split(code: str, cells: Sequence[CellCode], rules: Sequence[Rule], marker: str) -> list[str]:
    """The inverse of `_join`: each cell's new source, IPython lines restored."""
    marker_line = re.compile(rf"^{marker}(\d+)__\n", re.MULTILINE)
    markers = [int(m.group(1)) for m in marker_line.finditer(code)]
    if markers != list(range(1, len(cells))):
        raise RuleError([r.code for r in rules], "lost the boundaries between notebook cells")
    sources = []
    for cell, part in zip(cells, marker_line.split(code)[::2], strict=True):
        if not cell.masked.code.endswith("\n") and part.endswith("\n"):
            part = part[:-1]
        masked = cell.masked
        sources.append(cell.restore(unmask(part, masked.ipython_lines, masked.placeholder)))
    return sources


def _in_cell(finding: Finding, cells: Sequence[CellCode], starts: list[int]) -> Finding:
    """A finding on a line of the joined module, placed in its cell instead."""
    at = bisect.bisect_right(starts, finding.line) - 1
    cell, offset = cells[at], starts[at] - 1
    line, column = cell.in_cell(finding.line - offset, finding.column)
    end_line, end_column = cell.in_cell(finding.end_line - offset, finding.end_column)
    return replace(
        finding, line=line, column=column, end_line=end_line, end_column=end_column, cell=cell.number
    )


def _in_module(finding: Finding, cells: Sequence[CellCode], starts: list[int]) -> Finding | None:
    """The inverse of `_in_cell` (None when the finding's cell is not among `cells`)."""
    for cell, start in zip(cells, starts, strict=True):
        if cell.number == finding.cell:
            line, column = cell.in_code(finding.line, finding.column)
            end_line, end_column = cell.in_code(finding.end_line, finding.end_column)
            return replace(
                finding,
                line=line + start - 1,
                column=column,
                end_line=end_line + start - 1,
                end_column=end_column,
            )
    return None


def _names(code: str) -> set[str]:
    """The names a module reads or binds (its imports' too)."""
    names: set[str] = set()
    for node in ast.walk(parse_python(code)):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".", 1)[0])
    return names


def _fixes_hiding_names(module: str, result: MigrationResult, cells: Sequence[CellCode]) -> list[Finding]:
    """The applied fixes of `result` (of the joined `module`) on a name that the migration took
    out of the module and that an IPython line of `cells` names (`%time x = CollectiveHints()`
    after its import was renamed or removed): the masked line keeps the name, which would then
    raise NameError. They are the findings on an occurrence of such a name (the rename's on the
    import, the removal's on the use it rewrote)."""
    words = {
        word for cell in cells for line in cell.masked.ipython_lines for word in IDENTIFIER.findall(line)
    }
    if not words or not result.changed:
        return []
    lost = (_names(module) - _names(result.code)) & words
    if not lost:
        return []
    pattern = re.compile(rf"(?<![\w.])(?:{'|'.join(map(re.escape, sorted(lost)))})\b")
    at = {
        (number, match.start() + 1)
        for number, line in enumerate(re.split(r"\r\n?|\n", module), 1)  # as Python ends lines
        for match in pattern.finditer(line)
    }
    return [f for f in result.findings if f.applied and (f.line, f.column) in at]


def _migrate_cells(
    cells: list[CellCode], settings: Settings, path: str | None
) -> tuple[dict[int, str], list[Finding]]:
    """Run the rules over `cells` as one module: `({cell index: new source}, findings)`."""
    from tf24migrate.engine.loading import load_engine

    load_engine()
    from tf24migrate.engine.pipeline import run_rules

    notes = []
    for cell in list(cells):
        error = _python_syntax_error(cell)
        if error is not None:
            notes.append(_syntax_note(cell, error.lineno, error.offset, f"cannot parse: {error.msg}", path))
            cells.remove(cell)
    while cells:
        module, starts, marker = _join(cells)
        try:
            in_module = [
                f for f in (_in_module(f, cells, starts) for f in settings.declined) if f is not None
            ]
            result = run_rules(module, settings.declining(in_module), path=path)
            hiding = _fixes_hiding_names(module, result, cells)
            if hiding:  # an IPython line uses a name the fixes renamed or removed: decline those
                result = run_rules(module, settings.declining([*in_module, *hiding]), path=path)
        except SourceSyntaxError as error:  # LibCST refused what Python's parser took: drop that cell
            at = max(bisect.bisect_right(starts, error.lineno or 1) - 1, 0)
            line = (error.lineno or 1) - starts[at] + 1
            notes.append(_syntax_note(cells[at], line, error.offset, str(error.msg), path))
            del cells[at]
            continue
        findings = notes + [_in_cell(finding, cells, starts) for finding in result.findings]
        new_sources = {}
        if result.changed:
            for cell, source in zip(cells, _split(result.code, cells, settings.rules, marker), strict=True):
                if source != cell.source:
                    new_sources[cell.number - 1] = source
        return new_sources, findings
    return {}, notes


class _Cells:
    """The cells of a notebook as they are read (`read`): the code cells of the notebook's module,
    those of `%%writefile x.py` (a module each), the skipped ones and the markdown ones (`(number,
    text)`: read only by the rules that read prose). Only their sources are kept, not their JSON."""

    def __init__(self) -> None:
        self.in_notebook: list[CellCode] = []  # one module
        self.files: list[CellCode] = []  # `%%writefile x.py`: a module each
        self.skipped: list[SkippedCell] = []
        self.markdown: list[tuple[int, str]] = []

    def read(self, index: int, cell: dict) -> None:
        source = _cell_source(cell)
        kind = classify(index + 1, source) if source is not None else None
        if isinstance(kind, SkippedCell):
            self.skipped.append(kind)
        elif kind is not None:
            (self.files if kind.writes else self.in_notebook).append(kind)
        prose = _cell_source(cell, ("markdown",))
        if prose:
            self.markdown.append((index + 1, prose))


def _imported_from_file(
    cell: CellCode, changed: dict[int, str], notebook: Sequence[CellCode], path: str | None
) -> dict[str, str]:
    """`{name: where}` for the names the `%%writefile x.py` cell's migration (`changed`) binds
    otherwise that the notebook's own cells import from x (`from x import mp`, `%run x.py`): the
    notebook runs the file it writes (as `run.importers` finds the other files importing a
    module)."""
    names = rebound(cell.source, changed.get(cell.number - 1, cell.source))
    if not names or cell.writes is None:
        return {}
    module = cell.writes.replace("\\", "/").removesuffix(".py").split("/")
    code = cells_code(notebook)
    shown = os.path.basename(path) if path else "this notebook"
    found: dict[str, str] = {}
    for name, line in imports_of(code.text, [], module, set(names)):
        found.setdefault(name, f"`{shown}` ({code.place(line)})")
    return found


def _read(text: str, path: str | None) -> tuple[dict, _Cells]:
    """The notebook's JSON object without its cells, and its cells (`SourceSyntaxError`: not a notebook)."""
    cells = _Cells()
    notebook = load_streaming(text, cells.read)  # never all the cells' JSON objects at once
    if notebook is None:  # not a plain notebook: read whole, for its error or its cells
        notebook, cells = load(text, path), _Cells()
        for index, cell in enumerate(notebook.pop("cells")):
            cells.read(index, cell)
    return notebook, cells


def python_cells(text: str) -> list[CellCode]:
    """The code cells of a notebook's module, as `migrate_notebook` reads them (each cell's
    IPython lines masked; not the `%%writefile` cells, modules of their own), for what reads a
    notebook's imports; none where the kernel is not Python. Raises `SourceSyntaxError` when the
    text is not a notebook."""
    notebook, cells = _read(text, None)
    language = kernel_language(notebook)
    return cells.in_notebook if language is None or language.lower().startswith("python") else []


def migrate_notebook(text: str, settings: Settings, *, path: str | None = None) -> MigrationResult:
    """Migrate the code cells of a notebook's JSON text; see the module docstring. The fixes of
    the findings `settings` declines are not applied, only reported (as `run_rules` does).

    Raises `SourceSyntaxError` when the text is not a notebook, `RuleError` as `run_rules` does.
    """
    notebook, cells = _read(text, path)
    language = kernel_language(notebook)
    if language is not None and not language.lower().startswith("python"):
        message = f"notebook skipped: its kernel language is {language}, not Python"
        note = note_finding(NOTEBOOK_NOT_PYTHON, message, path=path, cell=None, line=1, column=1)
        return MigrationResult(text, text, (note,))
    in_notebook, files, skipped, markdown = cells.in_notebook, cells.files, cells.skipped, cells.markdown
    everything = "".join(
        [
            *(c.masked.code for c in in_notebook + files),
            *(c.source for c in skipped),
            *(prose for _, prose in markdown),
        ]
    )
    rules = settings.rules
    if not could_fire(everything, rules):  # the text prefilters, as for a Python file
        return MigrationResult(text, text)
    # a skipped cell (`%%bash` naming `experimental_run_v2`) need not import TensorFlow itself
    findings = [
        _skipped_note(cell, path)
        for cell in skipped
        if rules_that_could_fire(cell.source, rules, requires_in=everything)
    ]
    new_sources: dict[int, str] = {}
    for module in (in_notebook, *([cell] for cell in files)):
        if module and rules_that_could_fire("".join(cell.masked.code for cell in module), rules):
            changed, found = _migrate_cells(module, settings, path)
            if module is not in_notebook and changed:  # `%%writefile x.py`: the notebook may import x
                importing = _imported_from_file(module[0], changed, in_notebook, path)
                if importing:
                    changed, found = _migrate_cells(list(module), settings.importing(importing), path)
            new_sources.update(changed)
            findings += found
    if markdown and markdown_readers(rules):
        changed, found = migrate_markdown(markdown, settings, path=path)
        new_sources.update(changed)
        findings += found
    findings.sort(key=lambda f: (f.cell or 0, f.line, f.column, f.code))
    del cells, in_notebook, files, skipped, markdown  # not alive with the new text as well
    code = replace_sources(text, new_sources) if new_sources else text
    return MigrationResult(text, code, tuple(findings))


def notebook_diff(path: str, before: str, after: str) -> str:
    """A readable diff of a notebook: one unified diff of source code per changed cell."""
    from tf24migrate.sources.diff import unified_diff

    def sources(text: str) -> list[str | None]:
        return [_cell_source(cell, ("code", "markdown")) for cell in json.loads(text)["cells"]]

    diffs = []
    for number, (old, new) in enumerate(zip(sources(before), sources(after), strict=True), start=1):
        if old != new:
            old, new = (s if s.endswith("\n") else s + "\n" for s in (old or "", new or ""))
            diffs.append(unified_diff(f"{path}:cell {number}", old, new))
    return "".join(diffs)
