"""Reading the before/after fixtures of `fixtures/<code>-<name>/`.

Each case is `<case>.py` (input), `<case>.expected.py` (output; absent when the output is the
input, as in negative cases) and `<case>.findings`, the snapshot of the findings: per finding a line
`line:column CODE severity fix applied` (fix `none` when the rule has none, `not-applied` when the
fix was not made) and under it the finding's message and its details, each indented by four
spaces, so that the wording is tested too. A first line `# fixture: select=CODES unsafe-fixes target-version=X.Y` changes the rules
run (default: the folder's rule), turns on unsafe fixes, or sets the oldest TensorFlow the code must
run on (default: 2.4, every fix applies).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"  # in a clone of the repository
_OPTIONS = re.compile(r"#\s*fixture:(.*)")


@dataclass(frozen=True)
class Case:
    folder: Path
    name: str

    @property
    def id(self) -> str:
        return f"{self.folder.name}/{self.name}"

    @property
    def code(self) -> str:
        return self.folder.name.split("-", 1)[0]

    @property
    def input(self) -> Path:
        return self.folder / f"{self.name}.py"

    @property
    def expected(self) -> Path:
        return self.folder / f"{self.name}.expected.py"

    def expected_output(self) -> str:
        """The expected output: `<case>.expected.py`, or the input itself when there is none."""
        path = self.expected if self.expected.exists() else self.input
        return path.read_text(encoding="utf-8")

    @property
    def findings(self) -> Path:
        return self.folder / f"{self.name}.findings"

    def options(self) -> dict:
        first = self.input.read_text(encoding="utf-8").split("\n", 1)[0]
        match = _OPTIONS.match(first)
        words = match.group(1).split() if match else []
        select = next((w.split("=", 1)[1] for w in words if w.startswith("select=")), self.code)
        target = next((w.split("=", 1)[1] for w in words if w.startswith("target-version=")), None)
        return {
            "select": select.split(","),
            "unsafe_fixes": "unsafe-fixes" in words,
            "target_version": target,
        }


def all_cases(fixtures: Path = FIXTURES, code: str | None = None) -> list[Case]:
    """Every case under `fixtures`, or only those of the rule `code`."""
    cases = []
    for folder in sorted(p for p in fixtures.iterdir() if p.is_dir()):
        if code is not None and not folder.name.startswith(f"{code}-"):
            continue
        for source in sorted(folder.glob("*.py")):
            if not source.name.endswith(".expected.py"):
                cases.append(Case(folder, source.name[: -len(".py")]))
    return cases


def render_findings(findings) -> str:
    """The `.findings` snapshot: a header line per finding and its message indented below it."""
    blocks = []
    for f in findings:
        fix = f.fix.value if f.fix else "none"
        applied = "applied" if f.applied else "not-applied"
        message = (f.message + (f"\n{f.details}" if f.details else "")).replace("\n", "\n    ")
        blocks.append(f"{f.line}:{f.column} {f.code} {f.severity.value} {fix} {applied}\n    {message}\n")
    return "".join(blocks)


def snapshot_diff(expected: str, actual: str, path: Path) -> str:
    """A unified diff from the stored snapshot at `path` to what the run produced."""
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"{path.parent.name}/{path.name} (stored)",
        tofile=f"{path.parent.name}/{path.name} (this run)",
    )
    return "".join(lines)


def update(case: Case) -> list[Path]:
    """Write the case's expected output and findings from a run of the rules; the paths changed."""
    from tf24migrate import migrate_source

    source = case.input.read_text(encoding="utf-8")
    result = migrate_source(source, path=case.input.name, **case.options())
    paths = (case.expected, case.findings)
    before = [path.read_bytes() if path.exists() else None for path in paths]
    if result.code == source:
        case.expected.unlink(missing_ok=True)
    else:
        case.expected.write_text(result.code, encoding="utf-8")
    case.findings.write_text(render_findings(result.findings), encoding="utf-8")
    return [
        path
        for path, old in zip(paths, before, strict=True)
        if old != (path.read_bytes() if path.exists() else None)
    ]
