"""The default jobs against `-j 1` on a busy machine (issue 30).

    python benchmarks/loaded.py [--rounds N] [--busy N] [TREE ...]

Times `tf24migrate --check --no-cache` over each tree with the default jobs and with `-j 1`, the
two taking turns, best of `--rounds` fresh processes each, three ways: on the machine as it is,
with `--busy` processes spinning in sessions of their own (other programs: with Linux's
autogroups, each session gets its share of the cores, so the command's workers share one), and
with as many spinning in this session (each process gets its share: more workers, more share).
Prints each time and the ratio default / `-j 1` (below 1: the workers pay for themselves). Default
trees: the Model Garden 2.3.0 (`repos.py` unpacks it) and 100 generated due files.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from due_files import write_due_files
from speed import BIN, DATA, cache_bytecode

SPIN = "while True: pass"


def seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False)
    return time.perf_counter() - start


def timed(trees: list[Path], rounds: int) -> dict[str, tuple[float, float]]:
    """Per tree: the best of `rounds` (default jobs, -j 1), the two taking turns."""
    tool = str(BIN / "tf24migrate")
    times = {}
    for tree in trees:
        default = [tool, "--check", "--quiet", "--no-cache", str(tree)]
        serial = [*default[:-1], "-j", "1", str(tree)]
        pairs = [(seconds(default), seconds(serial)) for _ in range(rounds)]
        times[tree.name] = (min(p[0] for p in pairs), min(p[1] for p in pairs))
    return times


def spinning(count: int, own_session: bool) -> list[subprocess.Popen]:
    return [
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=own_session) for _ in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each measure (best kept)")
    parser.add_argument("--busy", type=int, default=2, help="processes spinning meanwhile")
    parser.add_argument("trees", nargs="*", type=Path, help="trees to run on")
    args = parser.parse_args()
    cache_bytecode()
    trees = args.trees
    if not trees:
        due = DATA / "due-100"
        if not due.is_dir():
            write_due_files(due, 100)
        garden = DATA / "tf-models-official-2.3.0"
        trees = [*([garden] if garden.is_dir() else []), due]
    for label, own_session in (
        ("as it is", None),
        ("other sessions busy", True),
        ("this session busy", False),
    ):
        spinners = [] if own_session is None else spinning(args.busy, own_session)
        try:
            time.sleep(0.3)
            for name, (default, serial) in timed(trees, args.rounds).items():
                print(
                    f"{label:20} {name:28} default {default:.2f}s, -j 1 {serial:.2f}s: {default / serial:.2f}x"
                )
        finally:
            for spinner in spinners:
                spinner.kill()
                spinner.wait()


if __name__ == "__main__":
    main()
