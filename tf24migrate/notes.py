"""The notes tf24migrate gives besides rule findings: their codes, names, severities and meanings.

A note is not a rule: it cannot be selected or ignored and has no fix. The modules that give
notes keep their own `(code, name)` pairs (`notebooks`, `tf1_code`); this table is what the
reporters need to describe them (the SARIF log's rule descriptors), and a test checks it against
those pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

from tf24migrate.findings import Severity


@dataclass(frozen=True)
class Note:
    code: str
    name: str
    severity: Severity
    summary: str


NOTES = (
    Note(
        "TF24001",
        "notebook-cell-syntax-error",
        Severity.ERROR,
        "A notebook cell does not parse: it is left as it is, the notebook's other cells are migrated.",
    ),
    Note(
        "TF24002",
        "notebook-not-python",
        Severity.INFO,
        "A notebook whose kernel language is not Python is left as it is.",
    ),
    Note(
        "TF24003",
        "tf1-file",
        Severity.INFO,
        "TensorFlow 1 code is left as it is: migrate it to TF 2 first (tf_upgrade_v2), then run tf24migrate.",
    ),
    Note(
        "TF24004",
        "notebook-cell-skipped",
        Severity.INFO,
        "A notebook cell that names something a rule looks for is not migrated, since its cell magic makes "
        "it something else than Python (%%bash, %%html, %%writefile of a file that is not .py).",
    ),
)
