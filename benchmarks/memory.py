"""Peak memory does not grow with the number of files: 200 versus 2,000 files due for migration.

    python benchmarks/memory.py

Runs `tf24migrate` (the default diff mode: every changed file's diff is printed, to /dev/null)
over each tree in a fresh process and prints the peak resident memory of the largest process of
the run (the main one or a worker).
"""

from __future__ import annotations

import shutil
import subprocess
import sys

from due_files import write_due_files
from speed import BIN, DATA, cache_bytecode, cold_flags

MEASURE = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def peak_kib(folder) -> int:
    command = [sys.executable, "-c", MEASURE, str(BIN / "tf24migrate"), "--quiet", *cold_flags(), str(folder)]
    return int(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def main() -> None:
    cache_bytecode()
    peaks = {}
    for count in (200, 2000):
        folder = DATA / f"memory-{count}"
        shutil.rmtree(folder, ignore_errors=True)
        write_due_files(folder, count)
        peaks[count] = peak_kib(folder)
        print(f"{count:5d} due files: peak {peaks[count] / 1024:.1f} MiB")
    print(f"ten times the files -> {peaks[2000] / peaks[200]:.2f}x the peak memory")


if __name__ == "__main__":
    main()
