"""What each start-up trick saves, as a user sees it: fresh processes, with and without it, side by side.

    python benchmarks/tricks.py [--rounds N] [--corpus FOLDER] [--corpus-rounds N] [--big N]
                                [--tricks T,T+T,...] [--only TEXT] [--no-server]

The tricks are those of `tf24migrate.model.tricks`, each switched off by `TF24MIGRATE_OFF`. Every
round runs each case once with everything on, once with each trick off in turn (`a+b`: both at
once), and once with all off, taking turns, so that a change in the machine's load falls on all
alike. Printed per case: the wall time and the CPU time (of the process and every process it
waited for: workers, the server's worker) with everything on, and per trick the median of the
rounds' differences, in ms and in % of the case; on a busy machine the CPU times are the figures
to read. The cases: `--version`, `--help`, `--check --no-cache` on a 3-line file with one finding
and on a 3-line file no rule reads; the language server's first diagnostics of that 3-line file
from its spawn (`server_latency.first_from_spawn`); given `--big N`, `--check` on a due file of
N times 280 lines; given `--corpus` (e.g. the unpacked Model Garden 2.3.0), `--check` on it with
every core (`--corpus-rounds` rounds, default 3).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from server_latency import SMALL, due_file, first_from_spawn
from speed import BIN, DATA, cache_bytecode

from tf24migrate.model.tricks import TRICKS, VARIABLE

PLAIN = "import os\n\nprint(os.sep)\n"


def cpu() -> float:
    """The CPU time (user and system) of this process's children that ended, workers included."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def command(arguments: list[str], cwd: Path, env: dict[str, str], status: int) -> float:
    done = subprocess.run([str(BIN / "tf24migrate"), *arguments], cwd=cwd, env=env, capture_output=True)
    assert done.returncode == status, (arguments, env.get(VARIABLE), done)
    return 0.0


def server(folder: Path, env: dict[str, str]) -> float:
    """The seconds from the server's spawn to its first diagnostics (not to its end)."""
    return first_from_spawn(folder, SMALL, env)[0]


def timed(run, env: dict[str, str]) -> tuple[float, float]:
    """The wall time of `run` (or the part it returns) and the CPU time of the processes it ran."""
    start, used = time.perf_counter(), cpu()
    part = run(env)
    return part or time.perf_counter() - start, cpu() - used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=15, help="rounds of the small cases (default 15; 0: none)"
    )
    parser.add_argument("--corpus", type=Path, help="a tree to run `--check` on too (Model Garden 2.3.0)")
    parser.add_argument("--corpus-rounds", type=int, default=3, help="rounds of the corpus (default 3)")
    parser.add_argument(
        "--tricks", default=",".join(TRICKS), help="the tricks to switch off, comma-separated"
    )
    parser.add_argument("--no-server", action="store_true", help="leave out the language server")
    parser.add_argument("--big", type=int, default=0, help="a due file of N times 280 lines too (0: none)")
    parser.add_argument("--only", default="", help="only the cases whose name holds this text")
    options = parser.parse_args()
    cache_bytecode()
    folder = DATA / "tricks"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / ".git").mkdir(parents=True)
    (folder / "small.py").write_text(SMALL)
    (folder / "plain.py").write_text(PLAIN)
    cases = {
        "--version": lambda env: command(["--version"], folder, env, 0),
        "--help": lambda env: command(["--help"], folder, env, 0),
        "--check, 3 lines, 1 finding": lambda env: command(
            ["--check", "--no-cache", "small.py"], folder, env, 1
        ),
        "--check, 3 lines, no rule reads": lambda env: command(
            ["--check", "--no-cache", "plain.py"], folder, env, 0
        ),
    }
    if not options.no_server:
        cases["server, first diagnostics from spawn"] = lambda env: server(folder, env)
    if options.big:
        (folder / "big.py").write_text("\n\n".join([due_file()] * options.big))
        cases[f"--check, {options.big} x 280 due lines"] = lambda env: command(
            ["--check", "--no-cache", "big.py"], folder, env, 1
        )
    if options.corpus:
        corpus = options.corpus.resolve()
        cases[f"--check on {corpus.name}"] = lambda env: command(
            ["--check", "--no-cache", "--exit-zero", str(corpus)], folder, env, 0
        )
    base = {key: value for key, value in os.environ.items() if key != VARIABLE}
    settings = {"all on": base}
    for trick in options.tricks.split(","):
        settings[f"{trick} off"] = {**base, VARIABLE: trick.replace("+", ",")}
    if len(settings) > 2:
        settings["all off"] = {**base, VARIABLE: options.tricks.replace("+", ",")}
    for case, run in cases.items():
        if options.only not in case:
            continue
        rounds = options.corpus_rounds if case.startswith("--check on") else options.rounds
        if not rounds:
            continue
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in settings}
        for env in settings.values():
            run(env)  # warm: the code caches written, the files in the page cache
        for _ in range(rounds):
            for label, env in settings.items():
                times[label].append(timed(run, env))
        on = times["all on"]
        wall, used = statistics.median(t[0] for t in on), statistics.median(t[1] for t in on)
        print(
            f"{case}: all on, wall median {wall * 1000:.0f} ms (best {min(t[0] for t in on) * 1000:.0f}), "
            f"CPU median {used * 1000:.0f} ms ({rounds} rounds, load average {os.getloadavg()[0]:.1f})"
        )
        for label in list(settings)[1:]:
            more = [(off[0] - on_[0], off[1] - on_[1]) for off, on_ in zip(times[label], on, strict=True)]
            extra_wall, extra_cpu = (
                statistics.median(m[0] for m in more),
                statistics.median(m[1] for m in more),
            )
            print(
                f"    {label}: wall {extra_wall * 1000:+.0f} ms ({extra_wall / wall:+.1%}), "
                f"CPU {extra_cpu * 1000:+.0f} ms ({extra_cpu / used:+.1%}) (medians of the rounds' differences)"
            )


if __name__ == "__main__":
    main()
