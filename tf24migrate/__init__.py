"""tf24migrate: migrate TensorFlow 2.0-2.3 code to the TensorFlow 2.4 API.

The library API: `migrate_source` for one source text, `migrate_paths` for files and folders.
"""

from __future__ import annotations

from tf24migrate.engine import RuleError, SourceSyntaxError, migrate_source
from tf24migrate.findings import FileResult, Finding, Fix, MigrationResult, Severity, Status
from tf24migrate.runner import migrate_paths

__version__ = "0.1.0"

__all__ = [
    "FileResult",
    "Finding",
    "Fix",
    "MigrationResult",
    "RuleError",
    "Severity",
    "SourceSyntaxError",
    "Status",
    "__version__",
    "migrate_paths",
    "migrate_source",
]
