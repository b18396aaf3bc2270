"""Reading the before/after fixtures of `fixtures/<code>-<name>/`.

Each case is `<case>.py` (input), `<case>.expected.py` (output; absent when the output is the
input, as in negative cases) and `<case>.findings` (one line per finding: `line:column CODE fix
applied`). A first line `# fixture: select=CODES unsafe-fixes target-version=X.Y` changes the rules
run (default: the folder's rule), turns on unsafe fixes, or sets the oldest TensorFlow the code must
run on (default: 2.4, every fix applies).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
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


def all_cases() -> list[Case]:
    cases = []
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        for source in sorted(folder.glob("*.py")):
            if not source.name.endswith(".expected.py"):
                cases.append(Case(folder, source.name[: -len(".py")]))
    return cases


def render_findings(findings) -> str:
    lines = [
        f"{f.line}:{f.column} {f.code} {f.fix.value if f.fix else 'none'} {'applied' if f.applied else 'not-applied'}"
        for f in findings
    ]
    return "".join(line + "\n" for line in lines)
