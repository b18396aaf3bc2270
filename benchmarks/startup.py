"""Start-up cost: `tf24migrate --version`, and a run over a tree with nothing to do.

    python benchmarks/startup.py

Best of 5 wall times of fresh processes, against a bare `python -c pass` measured in the same run.
The tree: 200 small Python files that mention no rule's trigger (generated in `benchmarks/.data/`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

from speed import BIN, DATA, cache_bytecode, cold_flags


def best_of(command: list[str], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    cache_bytecode()
    tree = DATA / "nothing-to-do"
    shutil.rmtree(tree, ignore_errors=True)
    for n in range(200):
        folder = tree / f"pkg{n % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{n}.py").write_text(f"import os\n\n\ndef f{n}(x):\n    return os.path.join(x, '{n}')\n")
    command = str(BIN / "tf24migrate")
    bare = best_of([sys.executable, "-c", "pass"])
    version = best_of([command, "--version"])
    nothing = best_of([command, "--check", *cold_flags(), str(tree)])
    libcst = best_of([sys.executable, "-c", "import libcst"])
    print(f"python -c pass {bare:.3f}s; python -c 'import libcst' {libcst:.3f}s")
    print(f"tf24migrate --version {version:.3f}s ({version / bare:.1f}x a bare python)")
    print(
        f"tf24migrate --check on 200 files with nothing to do {nothing:.3f}s ({nothing / bare:.1f}x a bare python)"
    )


if __name__ == "__main__":
    main()
