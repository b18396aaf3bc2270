"""The real TensorFlow releases the integration tests run programs on, and how a batch of programs
runs on one: `harness.py` in the release's own interpreter, the releases side by side.

The environments are made by `scripts/runtimes.py` (`.ci/run` calls it); a test that needs one
that is missing skips, with the reason saying how to get it.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).with_name("harness.py")


def _load_runtimes_script():
    spec = importlib.util.spec_from_file_location(
        "tf24migrate_runtimes", REPOSITORY / "scripts" / "runtimes.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runtimes = _load_runtimes_script()
RELEASES = tuple(runtimes.RELEASES)


def interpreter(release: str) -> Path:
    """The interpreter of `release`'s environment; skips the test when there is none."""
    python = runtimes.runtime_python(release)
    if python is not None:
        return python
    if runtimes.find_interpreter() is None:
        pytest.skip(f"TensorFlow {release} is not installed: {runtimes.HOW_TO_GET_PYTHON}")
    pytest.skip(
        f"TensorFlow {release} is not installed in {runtimes.environment(release)}: "
        "run `python scripts/runtimes.py` (it makes the environments of every release tested)"
    )


@dataclass(frozen=True)
class Outcome:
    """How one program ended on one release."""

    returncode: int
    stdout: str
    stderr: str
    error: str  # the last line of the exception that ended it, "" when it ran
    lines: tuple[int, ...]  # the program's lines in the traceback, outermost first

    @property
    def ran(self) -> bool:
        return self.returncode == 0

    def describe(self) -> str:
        return f"exit {self.returncode}: {self.error or 'ran'}\n{self.stdout[-1500:]}{self.stderr[-3000:]}"


@dataclass
class Batch:
    """Programs to run on each release; `run` runs every release's share at once."""

    programs: dict[str, list[tuple[Path, bool]]] = field(default_factory=dict)

    def add(self, release: str, path: Path, fresh: bool = False) -> None:
        self.programs.setdefault(release, []).append((path, fresh))

    def run(self, jobs: int = 1, timeout: int = 240) -> dict[tuple[str, Path], Outcome]:
        pythons = {release: interpreter(release) for release in self.programs}

        def run_release(release: str) -> dict[tuple[str, Path], Outcome]:
            entries = self.programs[release]
            request = {
                "programs": [{"path": str(path), "fresh": fresh} for path, fresh in entries],
                "jobs": jobs,
                "timeout": timeout,
            }
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
                json.dump(request, handle)
            done = subprocess.run(
                [str(pythons[release]), str(HARNESS), handle.name],
                capture_output=True,
                text=True,
                timeout=timeout * len(entries) + 120,
            )
            Path(handle.name).unlink()
            if done.returncode != 0:
                raise RuntimeError(f"the harness failed on TensorFlow {release}:\n{done.stderr[-3000:]}")
            results = json.loads(done.stdout.strip().splitlines()[-1])
            return {
                (release, path): Outcome(
                    r["returncode"], r["stdout"], r["stderr"], r["error"], tuple(r["lines"])
                )
                for (path, _), r in zip(entries, results, strict=True)
            }

        outcomes: dict[tuple[str, Path], Outcome] = {}
        with ThreadPoolExecutor(max_workers=len(self.programs) or 1) as pool:
            for result in pool.map(run_release, self.programs):
                outcomes.update(result)
        return outcomes


def current_tensorflow() -> str | None:
    """The TensorFlow release installed beside the tool (2.15.1 with the `test-tensorflow` extra)."""
    if importlib.util.find_spec("tensorflow") is None:
        return None
    from importlib.metadata import PackageNotFoundError, version

    for distribution in ("tensorflow-cpu", "tensorflow"):
        try:
            return version(distribution)
        except PackageNotFoundError:
            continue
    return None
