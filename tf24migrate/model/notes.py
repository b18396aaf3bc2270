"""The notes: findings that are not a rule's (a notebook cell that does not parse, a notebook that is
not Python, a TensorFlow 1 file, a notebook cell skipped, a file that does not parse, a suppression
comment naming no rule). Defined here once, for every output format and for `--ignore`.

A note cannot be selected (it is not a rule, it runs whenever its case occurs), only ignored:
ignoring it hides it from the results.
"""

from __future__ import annotations

from dataclasses import dataclass

from tf24migrate.model.findings import Finding, Fix, Severity


@dataclass(frozen=True)
class Note:
    code: str
    name: str
    severity: Severity
    description: str
    fix: Fix | None = None
    default: bool = True

    @property
    def summary(self) -> str:
        return self.description.split("\n\n")[0]

    @property
    def doc(self) -> str:
        return self.description


NOTEBOOK_CELL_SYNTAX = Note(
    "TF24001",
    "notebook-cell-syntax-error",
    Severity.ERROR,
    "A notebook code cell does not parse as Python (with IPython syntax masked): the cell is left as it "
    "is and the other cells are migrated.\n\nFix the cell and run tf24migrate again.",
)
NOTEBOOK_NOT_PYTHON = Note(
    "TF24002",
    "notebook-not-python",
    Severity.INFO,
    "A notebook whose kernel language is not Python: it is skipped.",
)
TF1_FILE = Note(
    "TF24003",
    "tf1-file",
    Severity.INFO,
    "TensorFlow 1 code (it imports `tensorflow.contrib`, or uses a TF 1-only name of the `tf` namespace "
    "outside `tf.compat.v1`): the file is left as it is, since TF 2.4 rewrites would break it on TF 1."
    "\n\nMigrate it to TF 2 first with `tf_upgrade_v2`, then run tf24migrate on it again.",
)

NOTEBOOK_CELL_SKIPPED = Note(
    "TF24004",
    "notebook-cell-skipped",
    Severity.INFO,
    "A notebook cell that names something a rule looks for is not migrated, since its cell magic makes "
    "it something else than Python (%%bash, %%html, %%writefile of a file that is not .py).",
)

SYNTAX_ERROR = Note(
    "TF24005",
    "syntax-error",
    Severity.ERROR,
    "A file does not parse as Python: it is left as it is, and the run exits 2.\n\nFix the syntax error "
    "(or run on a Python version whose syntax the file uses) and run tf24migrate again.",
)

UNKNOWN_SUPPRESSION = Note(
    "TF24006",
    "unknown-suppression",
    Severity.WARNING,
    "A suppression comment (`# tf24migrate: ignore[...]`, or `# noqa:` with a TF24 code) names a code or "
    "name that is no rule nor note: it suppresses nothing.\n\nCorrect it (`tf24migrate --list-rules` lists "
    "the codes and names) or remove it.",
)

NOTES: tuple[Note, ...] = (
    NOTEBOOK_CELL_SYNTAX,
    NOTEBOOK_NOT_PYTHON,
    TF1_FILE,
    NOTEBOOK_CELL_SKIPPED,
    SYNTAX_ERROR,
    UNKNOWN_SUPPRESSION,
)
NOTES_BY_CODE = {note.code: note for note in NOTES}


def note_finding(note: Note, message: str, **where) -> Finding:
    """A finding of `note`: `where` is `path`, `line`, `column` (and `cell`, `end_line`,
    `end_column`); the end defaults to the start."""
    message, _, details = message.partition("\n")  # as a rule's: the why after the first line
    line, column = where.pop("line"), where.pop("column")
    end_line, end_column = where.pop("end_line", line), where.pop("end_column", column)
    return Finding(
        note.code,
        note.name,
        line,
        column,
        end_line,
        end_column,
        message,
        note.severity,
        fix=None,
        applied=False,
        details=details.strip() or None,
        **where,
    )


def without_notes(findings: tuple[Finding, ...], hidden: frozenset[str]) -> tuple[Finding, ...]:
    """`findings` without those of the notes whose codes are in `hidden`."""
    if not hidden:
        return findings
    return tuple(finding for finding in findings if finding.code not in hidden)
