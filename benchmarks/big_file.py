"""One long file: time and memory must grow in proportion to its size.

    python benchmarks/big_file.py [MB ...]               # default: 1 5 10
    python benchmarks/big_file.py --command [INPUT ...]  # default: all of INPUTS
    python benchmarks/big_file.py --write-only [--scale F] [INPUT ...]
    python benchmarks/big_file.py --dense [CALLS ...]     # default: 1000 8000

Generates a TF 2.3 file of each size (`import tensorflow as tf`, then a
`strategy.experimental_run_v2(step)` call after every 999 lines of plain code: assignments, small
functions and classes, multi-line strings, comments) and migrates it with
`tf24migrate.migrate_source` in a fresh process, which prints its time and its peak resident memory
less the memory it had before the call (LibCST and the rules imported, the source read).

`--command` measures the inputs of issue 31 (`INPUTS`) as a user runs them: a fresh
`tf24migrate --check --no-cache FILE` process, its peak resident memory (`ru_maxrss` of the
finished child) less that of the same command on a file of two lines, divided by the file's size:
the "multiple of the file" of `docs/performance.md` and of the torture case `load-big-file-5mb`.
`--write-only` writes the inputs into `benchmarks/.data/` (`--scale 0.1`: a tenth of each, to
profile) and prints their paths.

`--dense` migrates files where every line is a call due for migration (`r_N =
strategy.experimental_run_v2(step, args=(x_N,))`), each in a fresh process, and prints the time
per 1,000 calls of each and the ratio of the largest file's to the smallest's: near 1 when the
rules' work at each call does not grow with the file (a whole-text search at each call made a
call of 8,000 take 6 times as long as one of 1,000).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from speed import BIN, DATA, cache_bytecode, cold_flags

MEASURE = (
    "import resource, sys, time\n"
    "import tf24migrate.transforms\n"
    "from tf24migrate import migrate_source\n"
    "source = open(sys.argv[1]).read()\n"
    "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "start = time.perf_counter()\n"
    "result = migrate_source(source)\n"
    "took = time.perf_counter() - start\n"
    "assert result.code.count('strategy.run(') == source.count('experimental_run_v2(')\n"
    "print(took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
)


def block(number: int) -> str:
    """999 lines of plain code, then a call due for migration."""
    lines: list[str] = []
    kind = 0
    while len(lines) < 999:
        k = number * 1000 + kind
        lines += [
            [f"value_{k} = compute({k}, 'some text to make the line long enough')"],
            [f"def helper_{k}(a, b=2):", f"    # a comment {k}", f"    return a * b + {k}", ""],
            [f"class Thing{k}:", f"    '''Docstring {k}'''", f"    size = {k}", ""],
            [f'text_{k} = """multi', f"line {k}", '"""'],
            [f"# comment {k}", f"items_{k} = [1, 2, 3, {k}]"],
        ][kind % 5]
        kind += 1
    return "\n".join(lines[:999]) + "\nstrategy.experimental_run_v2(step)\n"


def write_big_file(path, megabytes: float) -> int:
    pieces, size = ["import tensorflow as tf\n"], 0
    while size < megabytes * 1e6:
        pieces.append(block(len(pieces)))
        size += len(pieces[-1])
    path.write_text("".join(pieces))
    return size


CALL = "strategy.experimental_run_v2(step)"


def write_notebook(path: Path, cells: int, every: int, scale: float = 1.0) -> int:
    """A notebook of `cells` one-line code cells (`x_N = compute(N)`), as Jupyter lays it out
    (`indent=1`, each source a list of lines); every `every`th cell is instead an import of
    TensorFlow and a call due for migration (two lines)."""
    cells = int(cells * scale)
    sources = [
        ["import tensorflow as tf\n", CALL] if n % every == 0 else [f"x_{n} = compute({n})"]
        for n in range(cells)
    ]
    document = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
            for source in sources
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(document, indent=1) + "\n")
    return path.stat().st_size


def write_tiny_statements(path: Path, count: int, scale: float = 1.0) -> int:
    """`import tensorflow as tf`, `count` statements `aN=1` (one a line, N from 0 to 99 over and
    over: 5.9 bytes a statement), and one call due."""
    count = int(count * scale)
    path.write_text(
        "import tensorflow as tf\n" + "".join(f"a{n % 100}=1\n" for n in range(count)) + CALL + "\n"
    )
    return path.stat().st_size


def write_torture_file(path: Path, megabytes: int, scale: float = 1.0) -> int:
    """The file of the torture case `load-big-file-Nmb` (`tests/stress/cases_runs.py`): blocks of 999
    one-line calls and a call due for migration."""
    block = "".join(f"value_{i:04d} = compute({i}, 'some text to fill the line')\n" for i in range(999))
    block += "strategy.experimental_run_v2(step_fn)\n"
    path.write_text(
        "import tensorflow as tf\n" + block * max(1, int(megabytes * scale * 1_000_000) // len(block))
    )
    return path.stat().st_size


# name -> (file name, how to write it): the inputs of issue 31
INPUTS = {
    "notebook-1000": ("cells-100k-every-1000.ipynb", lambda p, s: write_notebook(p, 100_000, 1000, s)),
    "notebook-10": ("cells-100k-every-10.ipynb", lambda p, s: write_notebook(p, 100_000, 10, s)),
    "statements-3m": ("statements-3m.py", lambda p, s: write_tiny_statements(p, 3_000_000, s)),
    "torture-5mb": ("torture-5mb.py", lambda p, s: write_torture_file(p, 5, s)),
}

PEAK = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def command_peak(path: Path) -> tuple[int, int, float]:
    """(exit code, peak RSS in bytes, seconds) of `tf24migrate --check --no-cache path`, fresh."""
    command = [sys.executable, "-c", PEAK, str(BIN / "tf24migrate"), "--check", *cold_flags(), str(path)]
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1]) * 1024, time.perf_counter() - start


def measure_inputs(names: list[str]) -> None:
    small = DATA / "small.py"
    small.write_text("import tensorflow as tf\n" + CALL + "\n")
    baseline = command_peak(small)[1]
    print(f"a two-line file: peak {baseline / 1e6:.0f} MB")
    for name in names:
        file_name, write = INPUTS[name]
        path = DATA / file_name
        size = write(path, 1.0)
        code, peak, took = command_peak(path)
        print(
            f"{name}: {size / 1e6:.1f} MB, exit {code}, {took:.1f} s, peak {peak / 1e6:.0f} MB, "
            f"{(peak - baseline) / size:.1f}x the file above a two-line file's run ({peak / size:.1f}x in all)"
        )


def write_dense_calls(path: Path, count: int) -> int:
    """`import tensorflow as tf`, a strategy, and `count` lines each a call due for migration."""
    path.write_text(
        "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
        + "".join(f"r_{n} = strategy.experimental_run_v2(step, args=(x_{n},))\n" for n in range(count))
    )
    return path.stat().st_size


def measure_dense(counts: list[int]) -> None:
    """Time per 1,000 calls of files of `counts` due calls, and the ratio of the last to the first."""
    per_call = []
    for count in counts:
        path = DATA / f"dense-{count}.py"
        write_dense_calls(path, count)
        result = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True)
        if result.returncode:
            sys.exit(result.stderr)
        took = float(result.stdout.split()[0])
        per_call.append(took / count)
        print(f"{count:6} calls: {took:6.1f} s ({took / count * 1000:.2f} s per 1,000 calls)")
    print(f"time per call, {counts[-1]} calls against {counts[0]}: {per_call[-1] / per_call[0]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--command", action="store_true", help="measure the command on INPUTS")
    parser.add_argument("--write-only", action="store_true", help="write INPUTS, measure nothing")
    parser.add_argument("--dense", action="store_true", help="files of due calls only: SIZES are call counts")
    parser.add_argument("--scale", type=float, default=1.0, help="with --write-only: this fraction of each")
    parser.add_argument("sizes", nargs="*", help="MB of the generated file, or names of INPUTS")
    options = parser.parse_args()
    cache_bytecode()
    DATA.mkdir(parents=True, exist_ok=True)
    if options.dense:
        return measure_dense(sorted(map(int, options.sizes or ["1000", "8000"])))
    if options.command or options.write_only:
        names = options.sizes or list(INPUTS)
        unknown = sorted(set(names) - set(INPUTS))
        if unknown:
            sys.exit(f"unknown inputs {unknown}: choose from {sorted(INPUTS)}")
        if options.command:
            return measure_inputs(names)
        for name in names:
            file_name, write = INPUTS[name]
            path = DATA / (file_name if options.scale == 1 else f"{options.scale:g}-{file_name}")
            print(f"{path}: {write(path, options.scale) / 1e6:.1f} MB")
        return
    for megabytes in map(float, options.sizes or ["1", "5", "10"]):
        path = DATA / f"big-{megabytes:g}MB.py"
        size = write_big_file(path, megabytes)
        result = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True)
        if result.returncode:
            sys.exit(result.stderr)
        took, kib = result.stdout.split()
        grown = int(kib) * 1024
        print(
            f"{size / 1e6:5.1f} MB: {float(took):6.1f} s ({float(took) / (size / 1e6):.2f} s/MB), "
            f"peak memory +{grown / 2**20:.0f} MiB ({grown / size:.1f}x the file)"
        )


if __name__ == "__main__":
    main()
