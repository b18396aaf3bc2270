"""The reporters: one per output format (`OutputFormat`), each in a module of its own.

A reporter is handed each file's result as it comes (`add`) and prints, or keeps what its document
needs; `finish` prints what comes at the end. The session owns the summary line on stderr, the
progress bar and the exit code, which are the same in every format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tf24migrate.cli.invocation import OutputFormat, Run

if TYPE_CHECKING:
    from tf24migrate.cli.groups import Group
    from tf24migrate.cli.output import Summary
    from tf24migrate.cli.statistics import RuleStatistics
    from tf24migrate.model.findings import FileResult

# Prints text or bytes: to stderr when `err`, else stdout; the progress bar is cleared first.
Echo = Callable[..., None]


class Reporter:
    """Prints a run's results in one output format."""

    def __init__(self, run: Run, echo: Echo) -> None:
        self.run = run
        self.echo = echo

    @property
    def needs_texts(self) -> bool:
        """Whether a changed result must come with its texts (its diff or fixes are shown): a
        reporter that names the files to change, and no more, spares the cache reading them."""
        return True

    def add(self, result: FileResult, group: Group) -> None:
        """One file's result, with the group of settings it was migrated with."""
        raise NotImplementedError

    def finish(self, summary: Summary, statistics: RuleStatistics, *, interrupted: bool = False) -> None:
        """Print what comes after the last result (a document, the statistics); an `interrupted`
        run's document holds the files done, and says so."""
        raise NotImplementedError

    def statistics_table(self, statistics: RuleStatistics, *, err: bool) -> None:
        """With `--statistics`, the table of sites per rule."""
        if self.run.statistics:
            for line in statistics.lines(written=self.run.writes):
                self.echo(line, err=err)


_REPORTERS = {
    OutputFormat.TEXT: ("text", "TextReporter"),
    OutputFormat.JSON: ("json", "JsonReporter"),
    OutputFormat.GITHUB: ("github", "GithubReporter"),
    OutputFormat.SARIF: ("sarif", "SarifReporter"),
    OutputFormat.RDJSON: ("rdjson", "RdjsonReporter"),
}


def reporter_for(run: Run, echo: Echo) -> Reporter:
    """The reporter of `run`'s output format (its module is imported only then)."""
    import importlib

    module, name = _REPORTERS[run.output_format]
    kind: type[Reporter] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return kind(run, echo)
