"""Where a cold run's time goes over a tree, stage by stage: the profile behind `repos.py`'s floors.

    python benchmarks/stages.py [--rounds N] [TREE ...]

For each tree (default: the Model Garden 2.3.0 that `repos.py` unpacks), in this one process and
on one core, as a worker runs them (collecting garbage as the command does): reading and scanning
every `.py` file (the text prefilter, as a run turns files away), then the engine's stages over the
files it lets through, each timed with `time.perf_counter` around the function that does it. A
stage's time excludes the stages it calls (Python's parse is its own stage, whichever stage asks
for it first; the others reuse its tree). The best of `--rounds` rounds is kept per stage. Outputs
are not compared here: the stages are the engine's own functions, wrapped.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import gc
import sys
import time
from pathlib import Path

import libcst

from tf24migrate.catalogue.prefilter import could_fire
from tf24migrate.catalogue.settings import Settings
from tf24migrate.cli.command import COLLECT_AFTER
from tf24migrate.engine import pipeline
from tf24migrate.model.errors import TF24MigrateError
from tf24migrate.rules import text
from tf24migrate.run.files import UnreadableFile, read_source

DATA = Path(__file__).resolve().parent / ".data"
# (owner, attribute, stage): the functions timed, as the engine reaches them.
STAGES = (
    (pipeline, "rules_that_could_fire", "which rules could fire (per rule)"),
    (pipeline, "_imports_allow", "the check for an import of TensorFlow"),
    (pipeline, "tf1_evidence", "the TF 1 check"),
    (pipeline, "with_tf1_support", "the TF 1 support check"),
    (pipeline, "migrate_doctests", "doctest examples"),
    (pipeline.StatementPlan, "build", "the plan (Python's tree read)"),
    (pipeline.StatementPlan, "sparse", "the sparse text"),
    (text, "_parse", "Python's parse"),
    (libcst, "parse_module", "LibCST's parse"),
    (pipeline, "run_pass", "the rules' pass"),
    (pipeline._Parsed, "spans", "positions of the findings"),
    (pipeline._Parsed, "code", "code generation"),
    (pipeline, "_check_parses", "the check that generated code parses"),
)


class Timer:
    """Seconds per stage, each without the stages it calls."""

    def __init__(self) -> None:
        self.seconds: collections.Counter[str] = collections.Counter()
        self._inner: list[float] = []  # per stage running: the seconds of the stages it called

    def wrap(self, function, stage: str):
        @functools.wraps(function)
        def timed(*args, **kwargs):
            self._inner.append(0.0)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                inner = self._inner.pop()
                self.seconds[stage] += elapsed - inner
                if self._inner:
                    self._inner[-1] += elapsed

        return timed


def install(timer: Timer) -> None:
    for owner, name, stage in STAGES:
        function = owner.__dict__[name]
        if isinstance(function, classmethod):
            setattr(owner, name, classmethod(timer.wrap(function.__func__, stage)))
        else:
            setattr(owner, name, timer.wrap(function, stage))


def one_round(files: list[Path], settings: Settings, timer: Timer) -> tuple[float, float, int]:
    """Each file read and scanned, then, if a rule could fire in it, run by the engine (as a
    worker does: the engine's look at which rules could fire reuses the scan's probe):
    (scan seconds, engine seconds, files run)."""
    timer.seconds.clear()
    scan = engine = 0.0
    count = 0
    for path in files:
        start = time.perf_counter()
        try:
            source = read_source(str(path)).text
        except (OSError, UnreadableFile):
            continue
        due = could_fire(source, settings.rules)
        scanned = time.perf_counter()
        scan += scanned - start
        if due:
            count += 1
            with contextlib.suppress(SyntaxError, TF24MigrateError):
                pipeline.run_rules(source, settings, path=str(path))
            engine += time.perf_counter() - scanned
    return scan, engine, count


def main() -> None:
    gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])  # as the command's processes collect
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("trees", nargs="*", type=Path, default=[DATA / "tf-models-official-2.3.0"])
    args = parser.parse_args()
    settings = Settings.selected(None, None)
    timer = Timer()
    install(timer)
    for tree in args.trees:
        files = sorted(tree.rglob("*.py"))
        if not files:
            sys.exit(f"{tree}: no .py file (run benchmarks/repos.py first to unpack the trees)")
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            scan, engine, count = one_round(files, settings, timer)
            rows = {"read and scan (every file)": scan, "engine": engine, **timer.seconds}
            for stage, seconds in rows.items():
                best[stage] = min(best.get(stage, float("inf")), seconds)
        engine = best.pop("engine")
        print(f"\n{tree.name}: {len(files)} files, the engine runs over {count}: {engine:.3f}s of one core")
        print(f"  {'read and scan (every file)':42} {best.pop('read and scan (every file)'):6.3f}s")
        for stage, seconds in sorted(best.items(), key=lambda item: -item[1]):
            print(f"  {stage:42} {seconds:6.3f}s  {seconds / engine:4.0%}")
        rest = engine - sum(best.values())
        print(f"  {'the rest of the engine':42} {rest:6.3f}s  {rest / engine:4.0%}")


if __name__ == "__main__":
    main()
