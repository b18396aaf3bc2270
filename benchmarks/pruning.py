"""What statement pruning saves over the file prefilter alone: cold runs with and without it.

    python benchmarks/pruning.py [--rounds N] [--tf-sources PATH] [TREE ...]

The engine parses with LibCST only files the text prefilter lets through; in those, the statement
plan (`engine/pruning.py`) left out of LibCST's parse and walk the statements no rule's trigger
reaches. `TF24MIGRATE_OFF=pruning` turns it off: every due file is parsed and walked whole.
Over each tree (the folders named, else those of `repos.py`, fetched as it does), in fresh
processes taking turns in each of `--rounds` rounds, best kept: `tf24migrate --check --no-cache`
with the default jobs and with `-j 1`, the plan on and off. Printed per tree: seconds of wall
time and of CPU (the process and its workers), and the ratio off/on (above 1: the plan pays). The
JSON output of the runs must be the same with and without the plan; a difference is printed, and
the script exits 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from repos import BIN, run, trees
from speed import cache_bytecode

SWITCH = "TF24MIGRATE_OFF"


def _json(tree: Path, plan: bool) -> str:
    """The JSON output of a cold check of `tree`, with or without the plan."""
    environment = {k: v for k, v in os.environ.items() if k != SWITCH}
    if not plan:
        environment[SWITCH] = "pruning"
    command = [str(BIN / "tf24migrate"), "--check", "--no-cache", "--output-format", "json", str(tree)]
    return subprocess.run(command, capture_output=True, text=True, env=environment).stdout


def _timed(tree: Path, plan: bool, jobs: list[str]) -> tuple[float, float]:
    if plan:
        os.environ.pop(SWITCH, None)
    else:
        os.environ[SWITCH] = "pruning"
    try:
        return run([str(BIN / "tf24migrate"), "--check", "--no-cache", "--quiet", *jobs, str(tree)])
    finally:
        os.environ.pop(SWITCH, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, help="folders to check (default: repos.py's trees)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each measure (best kept)")
    parser.add_argument("--tf-sources", type=Path, help="an unpacked tensorflow/python folder of TF 2.15")
    args = parser.parse_args()
    cache_bytecode()
    chosen = {path.name: path for path in args.trees} if args.trees else trees(args.tf_sources)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}, Python {sys.version.split()[0]}")
    print(f"{'tree':<36} {'files':>5}  {'measure':<14} {'plan on':>8} {'plan off':>8} {'off/on':>6}")
    differ = []
    totals = {"wall": [0.0, 0.0], "cpu -j 1": [0.0, 0.0]}
    for name, tree in chosen.items():
        if _json(tree, True) != _json(tree, False):
            differ.append(name)
        files = sum(1 for _ in tree.rglob("*.py"))
        best: dict[tuple[str, bool], float] = {}
        for _ in range(args.rounds):
            for plan in (True, False):
                for label, jobs in (("wall", []), ("cpu -j 1", ["-j", "1"])):
                    wall, cpu = _timed(tree, plan, jobs)
                    seconds = wall if label == "wall" else cpu
                    best[label, plan] = min(best.get((label, plan), seconds), seconds)
        for label in ("wall", "cpu -j 1"):
            on, off = best[label, True], best[label, False]
            totals[label][0] += on
            totals[label][1] += off
            print(f"{name[:36]:<36} {files:>5}  {label:<14} {on:>8.2f} {off:>8.2f} {off / on:>6.2f}")
    for label, (on, off) in totals.items():
        print(f"{'all trees':<36} {'':>5}  {label:<14} {on:>8.2f} {off:>8.2f} {off / on:>6.2f}")
    print("outputs with and without the plan:", f"DIFFERENT: {', '.join(differ)}" if differ else "same")
    if differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
