"""Start-up cost: `tf24migrate --version`, the catalogue commands, and a run over a tree with
nothing to do.

    python benchmarks/startup.py [--rounds N]

Best wall time of fresh processes over `--rounds` rounds (default 7), the commands taking turns in
each round, against a bare `python -c pass` measured in the same run: `--version`, `--list-rules`
and `--explain TF24101` (goal: at most 2x `--version`, as neither needs a rule or LibCST loaded),
and `--check` over 200 small Python files that mention no rule's trigger (generated in
`benchmarks/.data/`).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time

from speed import BIN, DATA, cache_bytecode, cold_flags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds of each measure (best kept)")
    args = parser.parse_args()
    cache_bytecode()
    tree = DATA / "nothing-to-do"
    shutil.rmtree(tree, ignore_errors=True)
    for n in range(200):
        folder = tree / f"pkg{n % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{n}.py").write_text(f"import os\n\n\ndef f{n}(x):\n    return os.path.join(x, '{n}')\n")
    tool = str(BIN / "tf24migrate")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import libcst'": [sys.executable, "-c", "import libcst"],
        "tf24migrate --version": [tool, "--version"],
        "tf24migrate --list-rules": [tool, "--list-rules"],
        "tf24migrate --explain TF24101": [tool, "--explain", "TF24101"],
        "tf24migrate --check on 200 files with nothing to do": [tool, "--check", *cold_flags(), str(tree)],
    }
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(args.rounds):
        for label, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=False)
            best[label] = min(best[label], time.perf_counter() - start)
    bare, version = best["python -c pass"], best["tf24migrate --version"]
    for label, seconds in best.items():
        ratios = f"{seconds / bare:.1f}x a bare python"
        if label.startswith("tf24migrate") and label != "tf24migrate --version":
            ratios += f", {seconds / version:.2f}x --version"
        print(f"{label}: {seconds:.3f}s ({ratios})")


if __name__ == "__main__":
    main()
