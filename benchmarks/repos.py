"""tf24migrate on whole TensorFlow repositories, side by side in one run, cold and warm.

    python benchmarks/repos.py [--rounds N] [--tf-sources PATH]

The trees: the TensorFlow Model Garden 2.3.0 and 2.4.0 (`tf-models-official`), TF Probability
0.11.1 and TF Agents 0.6.0 (TF 2.3-era libraries), a large TF 2.3-era code base made of eight such
wheels side by side (3,011 files: the Model Garden 2.2.0 and 2.4.0, TF Probability, TF Agents,
TF Datasets 3.2.1, TF Addons 0.11.2, TF Hub 0.9.0 and TF Model Optimization 0.5.0), and TensorFlow
2.15's own Python sources (the `tensorflow/python` folder of the `tensorflow-cpu==2.15.1` wheel,
about 200 MB to download; `--tf-sources` names an unpacked one instead), fetched with
`pip download --no-deps` into `benchmarks/.data/` (ignored by git) when missing, their `.py`
files unpacked there. `--trees` picks some by the start of their names. Each measure is a fresh
process, as a user or CI runs it; the measures take turns in each of `--rounds` rounds and the
best time of each is kept:
- `tf24migrate --check TREE` cold (`--no-cache` when the command has it), with the default jobs
  and with `-j 1`; first, as a user's first run is: with the cache, in an empty `--cache-dir`
  (which it fills); and warm: again with the cache, in a temporary `--cache-dir` filled by one run
  before the rounds (nothing is written into the tree; skipped when there is no `--no-cache`);
- `ast.parse` over the same `.py` files (`python -c`, reading each file);
- `ruff check --select NPY201 --no-cache TREE` (skipped, with a note, when ruff is not installed);
- `tf24migrate --version`, the floor of a Python command;
- the floor of the stack on the tree: `--version`, plus importing LibCST (once: the workers inherit it) and
  LibCST's parse of exactly the texts tf24migrate's engine gives it over the tree (recorded in this
  process first), that parse shared by the default jobs; timed in a fresh process. No run of the
  tool can be faster while it parses these files with LibCST;
- the stages of this design on the tree: that floor, plus importing the rules and the engine
  (once, before the first file they read), reading and scanning every file (the text prefilter)
  and Python's parse of the files LibCST parses (the plan), those shared by the default jobs;
  timed in the same fresh process. What a cold run takes beyond is the engine's other stages
  (the rules' pass, the plan's own work, the TF 1 check, code generation and its check) and the
  workers' traffic.
- the floor of a warm run: `--version`, and what a bare Python takes beyond its start-up to list
  the tree's folders, stat each `.py` file and read and decode the cache's index; and the floor of
  a warm run of this tool: that, and what a run over an empty folder takes beyond `--version` (the
  modules a run imports, its options, configuration and summary);
- the work of a cold run today, as no schedule of it over the cores can beat: `--version` and the
  imports (which come before any file LibCST parses), and the rest of the CPU a `-j 1` run uses,
  shared by the default jobs. A cold run near it is bound by its CPU, not by how it is shared.
With `--outputs`, nothing is timed: the JSON output over each tree is compared across a run
without the cache (default jobs, and `-j 1`), a first run with an empty cache, and a warm run
(default jobs, and `-j 1`): they must be the same.
The tf24migrate timed is the one installed next to the running Python, its bytecode compiled first
(as `speed.py` does).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pickle
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from speed import cache_bytecode

from tf24migrate.run.migrate import default_jobs

DATA = Path(__file__).resolve().parent / ".data"
BIN = Path(sys.executable).parent
# A wheel: its requirement, the glob of its file, and pip's options to fetch it (a platform wheel).
MG220 = ("tf-models-official==2.2.0", "tf_models_official-2.2.0-*.whl", ())
MG230 = ("tf-models-official==2.3.0", "tf_models_official-2.3.0-*.whl", ())
MG240 = ("tf-models-official==2.4.0", "tf_models_official-2.4.0-*.whl", ())
TFP = ("tensorflow-probability==0.11.1", "tensorflow_probability-0.11.1-*.whl", ())
AGENTS = ("tf-agents==0.6.0", "tf_agents-0.6.0-*.whl", ())
PLATFORM = ("--python-version", "3.8", "--only-binary=:all:", "--platform", "manylinux2010_x86_64")
ERA = (
    MG220,
    MG240,
    TFP,
    AGENTS,
    ("tensorflow-datasets==3.2.1", "tensorflow_datasets-3.2.1-*.whl", ()),
    ("tensorflow-addons==0.11.2", "tensorflow_addons-0.11.2-*.whl", PLATFORM),
    ("tensorflow-hub==0.9.0", "tensorflow_hub-0.9.0-*.whl", ()),
    ("tensorflow-model-optimization==0.5.0", "tensorflow_model_optimization-0.5.0-*.whl", ()),
)
# A tree: its wheels (each unpacked into a folder of its own when there are several), and the
# folder of them measured.
RELEASES = {
    "Model Garden 2.3.0": ((MG230,), ""),
    "Model Garden 2.4.0": ((MG240,), ""),
    "TF Probability 0.11.1": ((TFP,), ""),
    "TF Agents 0.6.0": ((AGENTS,), ""),
    "TF 2.3-era code base (8 wheels)": (ERA, ""),
    "TensorFlow 2.15.1 tensorflow/python": (
        (("tensorflow-cpu==2.15.1", "tensorflow_cpu-2.15.1-*.whl", ()),),
        "tensorflow/python/",
    ),
}
# Collecting garbage as the command does, prints, in seconds: `import libcst` (its dataclasses' code
# taken from the engine's cache, as the command loads it); importing the rules and the engine after
# it; reading and scanning every file named (`prefilter.could_fire`, as a run turns files away);
# Python's parse of the files the engine parsed; LibCST's parse of the texts it gave LibCST
# (pickled: texts, paths).
STAGES = (
    "import gc, pickle, sys, time\n"
    "from tf24migrate.cli.command import COLLECT_AFTER\n"
    "from tf24migrate.engine import loading\n"
    "gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])  # as the command collects\n"
    "texts, due = pickle.load(open(sys.argv[1], 'rb'))\n"
    "files = open(sys.argv[2]).read().splitlines()\n"
    "start = time.perf_counter()\n"
    "with loading.dataclass_code(loading.code_cache('engine')):\n"
    "    import libcst\n"
    "imported = time.perf_counter()\n"
    "from tf24migrate.catalogue.prefilter import could_fire\n"
    "from tf24migrate.catalogue.settings import Settings\n"
    "from tf24migrate.run.migrate_file import load_rules\n"
    "from tf24migrate.run.files import read_source\n"
    "from tf24migrate.rules.text import parse_python\n"
    "settings = Settings.selected(None, None)\n"
    "load_rules(settings)\n"
    "loaded = time.perf_counter()\n"
    "for path in files:\n"
    "    could_fire(read_source(path).text, settings.rules)\n"
    "scanned = time.perf_counter()\n"
    "for path in due:\n"
    "    parse_python(read_source(path).text)\n"
    "parsed = time.perf_counter()\n"
    "for text in texts:\n"
    "    libcst.parse_module(text)\n"
    "done = time.perf_counter()\n"
    "print(imported - start, loaded - imported, scanned - loaded, parsed - scanned, done - parsed)\n"
)
STAGE_NAMES = ("import libcst", "import rules", "scan", "Python parse", "LibCST parse")
AST_PARSE = "import ast, sys\nfor path in open(sys.argv[1]).read().splitlines():\n    ast.parse(open(path, 'rb').read())\n"
# What no warm run can skip, in a bare Python: list the tree's folders, stat each `.py` file, and
# read and decode the cache's index (argv: the tree, the cache folder).
WALK_AND_STAT = (
    "import json, os, sys\n"
    "folders = [sys.argv[1]]\n"
    "while folders:\n"
    "    with os.scandir(folders.pop()) as listing:\n"
    "        for entry in listing:\n"
    "            if entry.is_dir(follow_symlinks=False):\n"
    "                folders.append(entry.path)\n"
    "            elif entry.name.endswith('.py'):\n"
    "                os.stat(entry.path)\n"
    "for name in os.listdir(sys.argv[2]):\n"
    "    if name.startswith('index-'):\n"
    "        with open(os.path.join(sys.argv[2], name), 'rb') as index:\n"
    "            json.loads(index.read().partition(b'\\n')[2])  # after its seal's line\n"
)


def unpacked(name: str, wheels: tuple, prefix: str) -> Path:
    """The `.py` files of the `wheels` (those under `prefix`), unpacked into `.data/`, as a project
    of their own (an empty `.git`, as a user's checkout has), so that this repository's
    pyproject.toml is not theirs."""
    target = DATA / (wheels[0][0].replace("==", "-") if len(wheels) == 1 else _folder_name(name))
    if not (target / ".git").is_dir():
        for requirement, wheel_glob, options in wheels:
            DATA.mkdir(parents=True, exist_ok=True)
            if not list(DATA.glob(wheel_glob)):
                print(f"downloading {requirement} ...", flush=True)
                command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(DATA)]
                subprocess.run([*command, *options, requirement], check=True)
            into = target if len(wheels) == 1 else target / requirement.replace("==", "-")
            with zipfile.ZipFile(sorted(DATA.glob(wheel_glob))[0]) as wheel:
                names = [n for n in wheel.namelist() if n.endswith(".py") and n.startswith(prefix)]
                wheel.extractall(into, names)
        (target / ".git").mkdir()
    return target / prefix if prefix else target


def _folder_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in ".-" else "-" for c in name).strip("-")


def trees(tf_sources: Path | None = None, chosen: list[str] | None = None) -> dict[str, Path]:
    """The trees measured, by name (those whose names start with one of `chosen`, if given), fetched
    when missing (`tf_sources`: an unpacked tensorflow/python)."""
    found = {}
    for name, (wheels, prefix) in RELEASES.items():
        if chosen and not any(name.lower().startswith(start.lower()) for start in chosen):
            continue
        if prefix and tf_sources is not None:
            found[name] = tf_sources
        else:
            found[name] = unpacked(name, wheels, prefix)
    return found


def libcst_texts(tree: Path, into: Path) -> tuple[int, int]:
    """Pickle into `into` the texts tf24migrate's engine gives LibCST's parser when it migrates
    every `.py` file of `tree` with the default rules, and the paths of the files they come from;
    their count and characters."""
    import libcst

    from tf24migrate import TF24MigrateError, migrate_source
    from tf24migrate.run.files import UnreadableFile, read_source

    texts: list[str] = []
    due: list[str] = []
    parse = libcst.parse_module

    def recorded(text, *args, **kwargs):
        texts.append(text)
        return parse(text, *args, **kwargs)

    libcst.parse_module = recorded
    try:
        for path in sorted(tree.rglob("*.py")):
            # the command reports these files' errors; what LibCST was given is recorded
            parsed = len(texts)
            with contextlib.suppress(SyntaxError, TF24MigrateError, UnreadableFile):
                migrate_source(read_source(str(path)).text, path=str(path))
            if len(texts) > parsed:
                due.append(str(path))
    finally:
        libcst.parse_module = parse
    into.write_bytes(pickle.dumps((texts, due)))
    return len(texts), sum(map(len, texts))


def stage_seconds(texts: Path, listing: Path) -> dict[str, float]:
    """In a fresh process: the seconds of each stage no run of this design can skip (`STAGES`)."""
    done = subprocess.run(
        [sys.executable, "-c", STAGES, str(texts), str(listing)], capture_output=True, text=True, check=True
    )
    return dict(zip(STAGE_NAMES, map(float, done.stdout.split()), strict=True))


def run(command: list[str], empty: Path | None = None) -> tuple[float, float]:
    """The seconds `command` takes in a fresh process (`empty`: a folder emptied before), and the
    seconds of CPU it and its workers used. A failure stops the measures: any exit code but 0 from
    a Python script, any but 0 and 1 from a tool (tf24migrate's and ruff's 1 says what was found)."""
    if empty is not None:
        shutil.rmtree(empty, ignore_errors=True)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 and not (done.returncode == 1 and command[0] != sys.executable):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime - used.ru_utime + after.ru_stime - used.ru_stime


def measures(tree: Path, listing: Path, scratch: Path) -> dict[str, list[str] | None]:
    """The commands timed over `tree`, by name (None: skipped); the runs with the cache keep it in
    `scratch` (`warm`, which one run fills first, and `first`, emptied before each run)."""
    tool = str(BIN / "tf24migrate")
    has_cache = "--no-cache" in subprocess.run([tool, "--help"], capture_output=True, text=True).stdout
    cold = [tool, "--check", "--quiet", *(["--no-cache"] if has_cache else []), str(tree)]
    empty = scratch / "empty"  # a run of no file: what the tool itself costs beyond --version
    empty.mkdir(exist_ok=True)
    ruff = shutil.which("ruff") or (str(BIN / "ruff") if (BIN / "ruff").exists() else None)
    return {
        "ast.parse": [sys.executable, "-c", AST_PARSE, str(listing)],
        "cold": cold,
        "cold -j 1": [*cold, "-j", "1"],
        "first": [tool, "--check", "--quiet", "--cache-dir", str(scratch / "first"), str(tree)]
        if has_cache
        else None,
        "warm": [tool, "--check", "--quiet", "--cache-dir", str(scratch / "warm"), str(tree)]
        if has_cache
        else None,
        "ruff NPY201": [ruff, "check", "--select", "NPY201", "--no-cache", "--quiet", str(tree)]
        if ruff
        else None,
        "--version": [tool, "--version"],
        "python": [sys.executable, "-c", "pass"],
        "walk and stat": [sys.executable, "-c", WALK_AND_STAT, str(tree), str(scratch / "warm")]
        if has_cache
        else None,
        "an empty folder": [tool, "--check", "--quiet", "--cache-dir", str(scratch / "warm"), str(empty)],
    }


def outputs_agree(tree: Path) -> str:
    """Whether the JSON output over `tree` is the same without the cache at any jobs, with a
    first and a warm cache: "same", or which runs differ from the first."""
    tool = str(BIN / "tf24migrate")
    with tempfile.TemporaryDirectory(prefix="tf24migrate-outputs-") as scratch:
        cache = ["--cache-dir", str(Path(scratch) / "cache")]
        runs = {
            "no cache": ["--no-cache"],
            "no cache, -j 1": ["--no-cache", "-j", "1"],
            "first": cache,
            "warm": cache,
            "warm, -j 1": [*cache, "-j", "1"],
        }
        outputs = {}
        for label, options in runs.items():
            done = subprocess.run(
                [tool, "--check", "--output-format", "json", *options, str(tree)],
                capture_output=True,
                text=True,
            )
            outputs[label] = done.stdout
    differ = [label for label, output in outputs.items() if output != outputs["no cache"]]
    return "same" if not differ else f"DIFFERENT: {', '.join(differ)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each measure (best kept)")
    parser.add_argument("--tf-sources", type=Path, help="an unpacked tensorflow/python folder of TF 2.15")
    parser.add_argument("--trees", nargs="*", help="only the trees whose names start so (`Model`, `TF 2.3`)")
    parser.add_argument(
        "--outputs", action="store_true", help="compare outputs across jobs and cache, no timing"
    )
    args = parser.parse_args()
    if args.outputs:
        for name, tree in trees(args.tf_sources, args.trees).items():
            print(f"{name}: {outputs_agree(tree)}", flush=True)
        return
    cache_bytecode()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{os.cpu_count()} cores, load average {load}, Python {sys.version.split()[0]}, {BIN / 'tf24migrate'}"
    )
    rows = []
    for name, tree in trees(args.tf_sources, args.trees).items():
        files = sorted(tree.rglob("*.py"))
        listing = DATA / f"files-{name.replace(' ', '-').replace('/', '-')}.txt"
        listing.write_text("".join(f"{p}\n" for p in files))
        best: dict[str, float] = {}
        with tempfile.TemporaryDirectory(prefix="tf24migrate-benchmark-") as scratch:
            commands = measures(tree, listing, Path(scratch))
            if commands["warm"]:
                run(commands["warm"])  # fills the cache the warm runs use
            texts = Path(scratch) / "libcst-texts.pickle"
            count, characters = libcst_texts(tree, texts)
            for _ in range(args.rounds):
                for label, command in commands.items():
                    if command is not None:
                        empty = Path(scratch) / "first" if label == "first" else None
                        seconds, cpu = run(command, empty)
                        if seconds < best.get(label, float("inf")):
                            best[label], best[f"{label} CPU"] = seconds, cpu
                for stage, seconds in stage_seconds(texts, listing).items():
                    best[stage] = min(best.get(stage, float("inf")), seconds)
        size = sum(p.stat().st_size for p in files) / 1e6
        parsed = f"{count} texts, {characters / 1e3:.0f} kB, {characters / 1e4 / size:.0f}% of the tree"
        rows.append((f"{name} ({len(files)} files, {size:.1f} MB)", best, parsed))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    jobs = default_jobs()
    for name, best, parsed in rows:
        base, version = best["ast.parse"], best["--version"]
        print(f"\n{name}: ast.parse in a fresh process {base:.2f}s, tf24migrate --version {version:.3f}s")
        for label in ("cold", "cold -j 1", "first", "warm", "ruff NPY201"):
            if label not in best:
                why = (
                    "ruff is not installed" if label == "ruff NPY201" else "no --no-cache in this tf24migrate"
                )
                print(f"  {label:12} skipped: {why}")
                continue
            extra = f", {best[label] / version:.1f}x --version" if label == "warm" else ""
            if label == "first":
                extra = f", {best[label] / best['cold']:.2f}x cold"
            print(f"  {label:12} {best[label]:6.2f}s  {best[label] / base:5.2f}x ast.parse{extra}")
        floor = version + best["import libcst"] + best["LibCST parse"] / jobs
        print(
            f"  {'floor':12} {floor:6.2f}s  {floor / base:5.2f}x ast.parse: --version + import libcst "
            f"{best['import libcst']:.2f}s + LibCST parse {best['LibCST parse']:.2f}s / {jobs} jobs ({parsed})"
        )
        stages = floor + best["import rules"] + (best["scan"] + best["Python parse"]) / jobs
        print(
            f"  {'stages':12} {stages:6.2f}s  {stages / base:5.2f}x ast.parse: the floor + import rules "
            f"{best['import rules']:.2f}s + (scan {best['scan']:.2f}s + Python parse of the parsed files "
            f"{best['Python parse']:.2f}s) / {jobs} jobs; cold takes {best['cold'] - stages:.2f}s more"
        )
        if "walk and stat" in best:
            bare = version + best["walk and stat"] - best["python"]
            print(
                f"  {'warm floor':12} {bare:6.3f}s  {bare / version:5.2f}x --version: --version + a bare "
                f"Python's walk, stat of each file and read of the index {best['walk and stat']:.3f}s "
                f"less its start-up {best['python']:.3f}s; warm takes {best['warm'] - bare:.3f}s more"
            )
            own = best["an empty folder"] - version
            floor_of_run = bare + own
            print(
                f"  {'run floor':12} {floor_of_run:6.3f}s  {floor_of_run / version:5.2f}x --version: the warm "
                f"floor + what a run over an empty folder takes beyond --version {own:.3f}s (its imports, "
                f"options, configuration and summary); warm takes {best['warm'] - floor_of_run:.3f}s more"
            )
        # What `-j 1` does is the work of any run: its start-up and imports come before any file
        # LibCST parses (done once, or in each worker at that much more CPU), the rest is shared.
        serial = version + best["import libcst"] + best["import rules"]
        work = serial + (best["cold -j 1 CPU"] - serial) / jobs
        print(
            f"  {'work':12} {work:6.2f}s  {work / base:5.2f}x ast.parse: --version + the imports "
            f"{serial - version:.2f}s + (the CPU of cold -j 1 {best['cold -j 1 CPU']:.2f}s less those) / "
            f"{jobs} jobs; cold used {best['cold CPU']:.2f}s of CPU and took {best['cold'] - work:.2f}s more"
        )


if __name__ == "__main__":
    main()
