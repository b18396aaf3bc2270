"""Speed of tf24migrate against `ast.parse`, `libcst.parse_module` and `tf_upgrade_v2`, in one run.

    python benchmarks/speed.py [--jobs N]

Prints ratios measured in this run (the machine's load changes absolute times, much less the
ratios). The corpus: every `.py` file of the running Python's standard library plus 100 small
TF 2.3 files generated from templates into `benchmarks/.data/` (ignored by git). tf24migrate is
run as a user runs it (`--check`, a fresh process, all cores unless `--jobs`); the baselines run
in this process, on one core, without start-up.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from due_files import write_due_files

DATA = Path(__file__).resolve().parent / ".data"
BIN = Path(sys.executable).parent


def cache_bytecode() -> None:
    """Compile tf24migrate's modules to cached bytecode, as installing a package does. (An editable
    install compiles them on first import, unless PYTHONDONTWRITEBYTECODE is set, as it is on some
    machines: then every run would compile them again, about 40 ms of start-up.)"""
    import compileall

    import tf24migrate.transforms

    import tf24migrate

    for package in (tf24migrate, tf24migrate.transforms):
        compileall.compile_dir(Path(package.__file__).parent, quiet=1)


def timed(function, repeat: int = 1) -> float:
    """The best wall time of `repeat` calls (the first call warms caches when repeat > 1)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def timed_with_cpu(function, repeat: int = 3) -> tuple[float, float]:
    """The best wall time of `repeat` calls after a warm-up, and the mean CPU time of this process
    and its workers per call (on a busy machine the wall time of a parallel run says more about
    the other load than about the run)."""

    def cpu() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    function()  # warm up
    start_cpu = cpu()
    wall = timed(function, repeat)
    return wall, (cpu() - start_cpu) / repeat


def stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)


def ast_parse_all(paths: list[Path]) -> None:
    for path in paths:
        with contextlib.suppress(SyntaxError, ValueError):  # a few test files are broken on purpose
            ast.parse(path.read_bytes())


def libcst_parse_all(paths: list[Path]) -> None:
    import libcst

    for path in paths:
        libcst.parse_module(path.read_bytes())


def libcst_in_a_fresh_process(paths: list[Path], repeat: int = 1) -> float:
    """The best wall time of `repeat` fresh processes that import LibCST and parse `paths`."""
    script = "import sys, libcst\nfor p in sys.argv[1:]: libcst.parse_module(open(p, 'rb').read())"
    command = [sys.executable, "-c", script, *map(str, paths)]
    return timed(lambda: subprocess.run(command, check=True), repeat)


def engine_in_this_process(paths: list[Path], jobs: int | None) -> None:
    from tf24migrate.rules import select_rules
    from tf24migrate.runner import migrate_files

    for _ in migrate_files([str(p) for p in paths], select_rules(), jobs=jobs or 0, texts=False):
        pass


def tf24migrate(paths: list[Path], jobs: int | None, repeat: int = 1) -> tuple[float, dict]:
    """The best wall time of `repeat` runs of `tf24migrate --check` over `paths`, each a fresh
    process, and its JSON summary."""
    listing = DATA / "files.txt"
    listing.write_text("".join(f"{p}\n" for p in paths))
    command = [str(BIN / "tf24migrate"), "--check", "--quiet", "--output-format", "json"]
    command += ["--files-from", str(listing), *(["--jobs", str(jobs)] if jobs else [])]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        best = min(best, time.perf_counter() - start)
        if result.returncode not in (0, 1, 2):
            raise SystemExit(f"tf24migrate failed:\n{result.stderr}")
    return best, json.loads(result.stdout)["summary"]


def tf_upgrade_v2(folder: Path) -> tuple[float, str] | None:
    """Wall time of TensorFlow's own upgrade script over `folder` (copied to an output tree), and
    how it ended ("ok", or its last line of error output)."""
    command = shutil.which("tf_upgrade_v2", path=str(BIN))
    if command is None:
        return None
    out = DATA / "tf_upgrade_v2-out"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    result = subprocess.run(
        [command, "--intree", str(folder), "--outtree", str(out), "--reportfile", str(DATA / "report.txt")],
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    lines = result.stderr.strip().splitlines()
    return (
        elapsed,
        "ok" if result.returncode == 0 else f"exit {result.returncode}: {lines[-1] if lines else ''}",
    )


def print_against_tf_upgrade_v2(folder: Path, t_ours: float) -> None:
    measured = tf_upgrade_v2(folder)
    if measured is None:
        print("tf_upgrade_v2: not installed (pip install tensorflow-cpu==2.15.1)")
        return
    t_upgrade, outcome = measured
    print(
        f"tf_upgrade_v2 {t_upgrade:.2f}s ({outcome}), tf24migrate {t_ours:.2f}s "
        f"-> tf24migrate takes {t_ours / t_upgrade:.2f}x tf_upgrade_v2's time"
    )


def against_ast_parse(files: list[Path], jobs: int | None) -> tuple[float, float]:
    """Times of `ast.parse` (this process, warm cache) and of tf24migrate (a fresh process), printed."""
    ast_parse_all(files)  # warm the page cache
    t_ast = timed(lambda: ast_parse_all(files))
    t_ours, summary = tf24migrate(files, jobs)
    print(f"tf24migrate: {summary}\nast.parse {t_ast:.2f}s, tf24migrate {t_ours:.2f}s")
    return t_ast, t_ours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=None, help="tf24migrate's --jobs (default: all cores)")
    args = parser.parse_args()
    cache_bytecode()
    due_folder = DATA / "due"
    shutil.rmtree(due_folder, ignore_errors=True)
    due = write_due_files(due_folder)
    stdlib = stdlib_files()
    everything = stdlib + due
    size = sum(p.stat().st_size for p in everything) / 1e6
    print(
        f"corpus: {len(stdlib)} stdlib files + {len(due)} due files ({size:.1f} MB); {os.cpu_count()} cores"
    )
    t_ast_all, t_ours_all = against_ast_parse(everything, args.jobs)
    print(f"stdlib + due: -> {t_ours_all / t_ast_all:.3f}x ast.parse (target <= 0.25x, aim 0.1x)")

    t_cst_due = timed(lambda: libcst_parse_all(due), repeat=5)
    t_ours_due, _ = tf24migrate(due, args.jobs, repeat=5)
    t_ours_due_serial, _ = tf24migrate(due, 1, repeat=5)
    print(
        f"due files, as a user runs it: libcst.parse_module {t_cst_due:.2f}s (in this process), "
        f"tf24migrate {t_ours_due:.2f}s (a fresh process) -> {t_ours_due / t_cst_due:.2f}x "
        f"(target <= 1.5x, aim 1.0x); with --jobs 1 {t_ours_due_serial:.2f}s "
        f"-> {t_ours_due_serial / t_cst_due:.2f}x"
    )
    t_cst_process = libcst_in_a_fresh_process(due, repeat=5)
    print(
        f"due files, both in a fresh process: `import libcst` + parse {t_cst_process:.2f}s, "
        f"tf24migrate {t_ours_due:.2f}s -> {t_ours_due / t_cst_process:.2f}x"
    )
    t_engine, cpu_engine = timed_with_cpu(lambda: engine_in_this_process(due, args.jobs))
    t_engine_serial, cpu_serial = timed_with_cpu(lambda: engine_in_this_process(due, 1))
    print(
        f"due files, both in this process: libcst.parse_module {t_cst_due:.2f}s, "
        f"tf24migrate.runner.migrate_files {t_engine:.2f}s (CPU {cpu_engine:.2f}s) -> "
        f"{t_engine / t_cst_due:.2f}x; with jobs=1 {t_engine_serial:.2f}s (CPU {cpu_serial:.2f}s) "
        f"-> {t_engine_serial / t_cst_due:.2f}x"
    )
    print("due files: ", end="")
    print_against_tf_upgrade_v2(due_folder, t_ours_due)


if __name__ == "__main__":
    main()
