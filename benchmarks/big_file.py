"""One long file: time and memory must grow in proportion to its size.

    python benchmarks/big_file.py [MB ...]       # default: 1 5 10

Generates a TF 2.3 file of each size (`import tensorflow as tf`, then a
`strategy.experimental_run_v2(step)` call after every 999 lines of plain code: assignments, small
functions and classes, multi-line strings, comments) and migrates it with
`tf24migrate.migrate_source` in a fresh process, which prints its time and its peak resident memory
less the memory it had before the call (LibCST and the rules imported, the source read).
"""

from __future__ import annotations

import subprocess
import sys

from speed import DATA, cache_bytecode

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


def main() -> None:
    cache_bytecode()
    DATA.mkdir(parents=True, exist_ok=True)
    for megabytes in map(float, sys.argv[1:] or ["1", "5", "10"]):
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
