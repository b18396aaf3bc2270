"""What `verify` says: the two runs' exit codes, the checks the migration broke (passed before,
fail after) and those it fixed, and for every check failing after, its traceback's frames in the
project's files with the findings on those lines (code, message, whether the rule's fix was
applied there). As text, or as one JSON document.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from tf24migrate.verify.runs import Check, Frame, Outcome
from tf24migrate.verify.scratch import Located, Migration

_OUTPUT_LINES = 15  # of a failing run without a traceback, the last lines shown


@dataclass(frozen=True)
class Run:
    """One side's run: where it ran and how it ended."""

    name: str
    release: str
    python: str
    outcome: Outcome
    timeout: float | None

    def json(self) -> dict:
        outcome = self.outcome
        counts = _counts(outcome.checks.values())
        return {
            "tensorflow": self.release,
            "python": self.python,
            "returncode": outcome.returncode,
            "timed_out": outcome.returncode is None,
            "seconds": round(outcome.duration, 3),
            **counts,
        }

    def describe(self) -> str:
        outcome = self.outcome
        ended = (
            f"timed out after {self.timeout:g} s"
            if outcome.returncode is None
            else f"exit {outcome.returncode}"
        )
        counts = ", ".join(f"{n} {what}" for what, n in _counts(outcome.checks.values()).items() if n)
        return f"{ended} in {outcome.duration:.1f}s{f' ({counts})' if counts else ''}"


def _turned(passing: Run, failing: Run) -> list[Check]:
    """The checks failing in `failing` that pass in `passing`: there, or absent from a run that
    passed."""
    passed = passing.outcome.checks
    return [
        check
        for name, check in failing.outcome.checks.items()
        if check.passed is False
        and (passed[name].passed is True if name in passed else passing.outcome.passed)
    ]


def _counts(checks) -> dict[str, int]:
    checks = list(checks)
    return {
        "passed": sum(c.passed is True for c in checks),
        "failed": sum(c.passed is False for c in checks),
        "skipped": sum(c.passed is None for c in checks),
    }


@dataclass(frozen=True)
class Verdict:
    """Both runs compared."""

    command: Sequence[str] | None  # None: import mode
    before: Run
    after: Run
    migration: Migration

    @property
    def regressions(self) -> list[Check]:
        """Checks that fail after and passed before: ran and passed, or (a test module that no
        longer imports is a check of its own) were not there in a run that passed."""
        return _turned(self.before, self.after)

    @property
    def fixed(self) -> list[Check]:
        """Checks that failed before and pass after, as they failed before."""
        return _turned(self.after, self.before)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.after.outcome.checks.values() if check.passed is False]

    @property
    def passed(self) -> bool:
        return self.after.outcome.passed

    def _findings(self, frame: Frame, migrated: bool) -> list[Located]:
        return self.migration.on_line(frame.file, frame.line, migrated=migrated)

    def _entry(self, check: Check, migrated: bool) -> dict:
        """A check as JSON: its failing frame (the innermost with findings, else the innermost)."""
        frames = [(frame, self._findings(frame, migrated)) for frame in check.frames]
        focus = next((pair for pair in reversed(frames) if pair[1]), frames[-1] if frames else None)
        return {
            "test": check.name,
            "error": check.error,
            "file": focus[0].file if focus else None,
            "line": focus[0].line if focus else None,
            "findings": [f.json() for f in focus[1]] if focus else [],
            "frames": [
                {"file": frame.file, "line": frame.line, "findings": [f.json() for f in found]}
                for frame, found in frames
            ],
        }

    def json(self) -> dict:
        return {
            "command": list(self.command) if self.command is not None else None,
            "mode": "command" if self.command is not None else "import",
            "before": self.before.json(),
            "after": self.after.json(),
            "migration": {
                "files_changed": sorted(self.migration.changed),
                "findings": self.migration.finding_count,
                "files_failed": self.migration.failed,
            },
            "regressions": [self._entry(check, True) for check in self.regressions],
            "fixed": [self._entry(check, False) for check in self.fixed],
            "failures": [self._entry(check, True) for check in self.failures],
            "passed": self.passed,
        }

    def text(self) -> str:
        what = " ".join(self.command) if self.command is not None else "import the migrated modules"
        migration = self.migration
        lines = [
            f"tf24migrate verify: {what}",
            f"  before: TensorFlow {self.before.release}, as written: {self.before.describe()}",
            f"  after:  TensorFlow {self.after.release}, migrated ({_count(len(migration.changed), 'file')} "
            f"changed, {_count(migration.finding_count, 'finding')}): {self.after.describe()}",
        ]
        for path, error in sorted(migration.failed.items()):
            lines.append(f"  not migrated: {path}: {error}")
        regressions = self.regressions
        for title, checks, migrated in (
            ("Fail before, pass after (fixed)", self.fixed, False),
            ("Pass before, fail after (regressions)", regressions, True),
            ("Also failing after", [c for c in self.failures if c not in regressions], True),
        ):
            if checks:
                lines += ["", f"{title}:"]
                for check in checks:
                    lines += self._check_lines(check, migrated)
        if not self.passed and not self.failures:
            tail = self.after.outcome.output.splitlines()[-_OUTPUT_LINES:]
            lines += ["", "The run after the migration ended with:", *(f"  | {line}" for line in tail)]
        lines += [
            "",
            f"verify: the check {'passes' if self.passed else 'fails'} on TensorFlow {self.after.release} "
            "after the migration",
        ]
        return "\n".join(lines)

    def _check_lines(self, check: Check, migrated: bool) -> list[str]:
        lines = [f"  {check.name}{f': {check.error}' if check.error else ''}"]
        for frame in check.frames:
            found = self._findings(frame, migrated)
            lines.append(f"    {frame.file}:{frame.line}")
            lines += [
                f"      {f.code} ({'fixed here' if f.applied else 'reported'}): {f.message}" for f in found
            ]
        return lines


def _count(number: int, what: str) -> str:
    return f"{number} {what}{'' if number == 1 else 's'}"


def dumps(verdict: Verdict) -> str:
    return json.dumps(verdict.json(), indent=2)
