"""The library's exceptions, under one base (`TF24MigrateError`): a source does not parse, a rule
failed on it, a rule selector names no rule (the target version's and a missing path's errors,
in `model.target` and `run.discovery`, derive from it too)."""

from __future__ import annotations

from collections.abc import Sequence


class TF24MigrateError(Exception):
    """Base of every exception the library raises on purpose: `except TF24MigrateError` catches
    them all; each also derives from the built-in exception it is a kind of."""


class UnknownRuleError(TF24MigrateError, ValueError):
    """A code, name or prefix that names no rule."""


class SourceSyntaxError(TF24MigrateError, SyntaxError):
    """The input is not valid Python (as LibCST parses it)."""


class RuleError(TF24MigrateError, RuntimeError):
    """A rule failed or produced code that does not parse: a bug in tf24migrate, never in the
    user's code. `problem` says what happened, after "rule TF24xxx"."""

    def __init__(self, codes: Sequence[str], problem: str) -> None:
        self.codes = tuple(codes)
        super().__init__(
            f"internal error: rule {', '.join(codes)} {problem}; the file was left unchanged. "
            f"Please report this with the file, or run with --ignore {','.join(codes)}"
        )


class RuleDefinitionError(TF24MigrateError, TypeError):
    """A rule class is written wrong (a handler for no LibCST node, a `visit_` method): raised when
    the class is defined, with what to write instead."""
