"""tf24migrate: migrate TensorFlow 2.0-2.3 code to the TensorFlow 2.4 API.

The library API: `migrate_source` for one source text, `migrate_paths` for files and folders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from tf24migrate.engine.pipeline import migrate_source
    from tf24migrate.model.errors import RuleError, SourceSyntaxError, TF24MigrateError, UnknownRuleError
    from tf24migrate.model.findings import FileResult, Finding, Fix, MigrationResult, Severity, Status
    from tf24migrate.model.target import TargetVersionError
    from tf24migrate.run.discovery import MissingPathError
    from tf24migrate.run.migrate import migrate_paths

# Imported on first use, so that `tf24migrate --version` loads none of them (nor LibCST).
_LAZY = {
    "FileResult": "tf24migrate.model.findings",
    "Finding": "tf24migrate.model.findings",
    "Fix": "tf24migrate.model.findings",
    "MigrationResult": "tf24migrate.model.findings",
    "Severity": "tf24migrate.model.findings",
    "Status": "tf24migrate.model.findings",
    "MissingPathError": "tf24migrate.run.discovery",
    "RuleError": "tf24migrate.model.errors",
    "SourceSyntaxError": "tf24migrate.model.errors",
    "TF24MigrateError": "tf24migrate.model.errors",
    "TargetVersionError": "tf24migrate.model.target",
    "UnknownRuleError": "tf24migrate.model.errors",
    "migrate_source": "tf24migrate.engine.pipeline",
    "migrate_paths": "tf24migrate.run.migrate",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        if _LAZY[name] == "tf24migrate.engine.pipeline":  # it imports LibCST: loaded as the command does
            from tf24migrate.engine.loading import load_engine

            load_engine()
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tf24migrate' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "FileResult",
    "Finding",
    "Fix",
    "MigrationResult",
    "MissingPathError",
    "RuleError",
    "Severity",
    "SourceSyntaxError",
    "Status",
    "TF24MigrateError",
    "TargetVersionError",
    "UnknownRuleError",
    "__version__",
    "migrate_paths",
    "migrate_source",
]
