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
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from due_files import write_due_files

DATA = Path(__file__).resolve().parent / ".data"
BIN = Path(sys.executable).parent


def cold_flags() -> list[str]:
    """`--no-cache` where the installed command has a result cache: these scripts time cold runs
    (`repos.py` times warm ones too)."""
    usage = subprocess.run([str(BIN / "tf24migrate"), "--help"], capture_output=True, text=True).stdout
    return ["--no-cache"] if "--no-cache" in usage else []


def cache_bytecode() -> None:
    """Compile tf24migrate's modules to cached bytecode, as installing a package does, and cache the
    code of its dataclasses in the user's cache folder, as a user's first run does
    (`engine.loading`). (An editable install compiles them on first import, unless
    PYTHONDONTWRITEBYTECODE is set, as it is on some machines: then every run would compile them
    again, about 40 ms of start-up, and the dataclasses 60 ms more in each run that loads the
    engine.)"""
    import compileall

    import tf24migrate.transforms

    import tf24migrate

    for package in (tf24migrate, tf24migrate.transforms):
        compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "due.py").write_text("import tensorflow as tf\nstrategy.experimental_run_v2(step)\n")
        run = [str(BIN / "tf24migrate"), "--check", "--no-cache", folder]
        subprocess.run(run, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(function, repeat: int = 1) -> float:
    """The best wall time of `repeat` calls (the first call warms caches when repeat > 1)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def best_interleaved(functions: dict[str, Callable[[], object]], repeat: int = 10) -> dict[str, float]:
    """The best wall time of each function over `repeat` rounds, the functions taking turns in
    each round, so that a change in the machine's load falls on all of them alike."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(repeat):
        for name, function in functions.items():
            best[name] = min(best[name], timed(function))
    return best


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


def libcst_in_a_fresh_process(paths: list[Path]) -> None:
    """A fresh process that imports LibCST and parses `paths`."""
    script = "import sys, libcst\nfor p in sys.argv[1:]: libcst.parse_module(open(p, 'rb').read())"
    subprocess.run([sys.executable, "-c", script, *map(str, paths)], check=True)


def engine_in_this_process(paths: list[Path], jobs: int | None) -> None:
    from tf24migrate.catalogue.selection import select_rules
    from tf24migrate.run.migrate import migrate_files

    for _ in migrate_files([str(p) for p in paths], select_rules(), jobs=jobs or 0, texts=False):
        pass


def tf24migrate(paths: list[Path], jobs: int | None, *, summary: bool = False) -> tuple[float, dict]:
    """Wall time of `tf24migrate --check` over `paths` in a fresh process (its default text
    output, as in CI), and, when asked, its summary (from another run, with JSON output)."""
    listing = DATA / f"files-{len(paths)}.txt"
    listing.write_text("".join(f"{p}\n" for p in paths))
    command = [str(BIN / "tf24migrate"), "--check", "--quiet", *cold_flags(), "--files-from", str(listing)]
    command += ["--jobs", str(jobs)] if jobs else []
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1, 2):
        raise SystemExit(f"tf24migrate failed:\n{result.stderr}")
    if not summary:
        return elapsed, {}
    result = subprocess.run([*command, "--output-format", "json"], capture_output=True, text=True)
    return elapsed, json.loads(result.stdout)["summary"]


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
    t_ours, summary = tf24migrate(files, jobs, summary=True)
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

    libcst_parse_all(due)  # warm up
    engine_in_this_process(due, args.jobs)
    t = best_interleaved(
        {
            "libcst": lambda: libcst_parse_all(due),
            "engine": lambda: engine_in_this_process(due, args.jobs),
            "engine, 1 job": lambda: engine_in_this_process(due, 1),
            "libcst, fresh process": lambda: libcst_in_a_fresh_process(due),
            "tf24migrate": lambda: tf24migrate(due, args.jobs),
            "tf24migrate, 1 job": lambda: tf24migrate(due, 1),
        }
    )
    print("due files (best of 10 rounds, each measure in turn):")
    print(
        f"  both in this process: libcst.parse_module {t['libcst']:.3f}s, "
        f"tf24migrate.run.migrate.migrate_files {t['engine']:.3f}s -> {t['engine'] / t['libcst']:.2f}x "
        f"(target <= 1.5x, aim 1.0x); with jobs=1 {t['engine, 1 job']:.3f}s "
        f"-> {t['engine, 1 job'] / t['libcst']:.2f}x"
    )
    print(
        f"  both a fresh process: `import libcst` + parse {t['libcst, fresh process']:.3f}s, "
        f"tf24migrate {t['tf24migrate']:.3f}s -> {t['tf24migrate'] / t['libcst, fresh process']:.2f}x; "
        f"with --jobs 1 {t['tf24migrate, 1 job']:.3f}s "
        f"-> {t['tf24migrate, 1 job'] / t['libcst, fresh process']:.2f}x"
    )
    print(
        f"  as a user runs it (a fresh process) against libcst.parse_module in this process: "
        f"{t['tf24migrate'] / t['libcst']:.2f}x (importing LibCST alone takes longer than the parse)"
    )
    t_ours_due = t["tf24migrate"]
    print("due files: ", end="")
    print_against_tf_upgrade_v2(due_folder, t_ours_due)


if __name__ == "__main__":
    main()
