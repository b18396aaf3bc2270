"""What goes wrong with one file: it does not parse, or a rule failed on it."""

from __future__ import annotations

from collections.abc import Sequence


class SourceSyntaxError(SyntaxError):
    """The input is not valid Python (as LibCST parses it)."""


class RuleError(RuntimeError):
    """A rule failed or produced code that does not parse: a bug in tf24migrate, never in the
    user's code. `problem` says what happened, after "rule TF24xxx"."""

    def __init__(self, codes: Sequence[str], problem: str) -> None:
        self.codes = tuple(codes)
        super().__init__(
            f"internal error: rule {', '.join(codes)} {problem}; the file was left unchanged. "
            f"Please report this with the file, or run with --ignore {','.join(codes)}"
        )
