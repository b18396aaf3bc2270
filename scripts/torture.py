"""The torture lists of issues 11, 31 (`torture_trust.py`) and 46 (`torture_server.py`: the
language server against a hostile client, and the command's new surfaces), run against the
installed `tf24migrate` command and its library.

Usage: python scripts/torture.py [--quick] [--big-mb N] [--keep DIR] [--only REGEX]

Run it with the Python of the environment the tool is installed in (`tf24migrate` on PATH and
`import tf24migrate` working). Each case is built in a folder of its own under a temporary folder
(under DIR with --keep, left there), run in fresh processes with a timeout, and classified. One line
per case (case id, the issue's item number, outcome), then the totals; the exit code is 1 if any
total but `cases` is non-zero.

Every migratable input holds one kind of fix only, `experimental_run_v2(` -> `run(` (TF24101), so the
lines a reported fix changes are known in advance: a file is expected to end either as it was
(refused, named on stderr) or as the input with exactly that text replaced.

Outcomes, worst first (a case takes the first that applies):
- hang: the command (or the library call) did not end within the timeout (120 s a case, more for the
  big file and the 20,000 files); its process group is then killed.
- crash: a Python traceback on stderr, death by a signal, an exit code outside 0, 1, 2 and 130 (the
  README and tf24migrate/cli/exit_codes.py), "internal error" or "Please report" for the user's own
  input, or a library call raising anything but TypeError or a TF24MigrateError.
- bytes lost: after the run a file differs from both its input and its expected migration (for a
  notebook: the JSON text with only the cell sources' call text replaced, byte for byte), a file
  that should not change changed or vanished, a file outside the named folder changed, a library
  result differs from the expected code, or stdin mode printed anything but the input or its
  migration.
- unclear message: a failure (exit 2, a refused or skipped file) whose stderr does not name the
  file (or the config) on a line of its own explanation, lacks what the case says a clear message
  must say (e.g. "not a regular file" for a FIFO, "newer Python" for PEP 695 syntax), says what it
  must not ("no such file or folder" for a FIFO), or any raw control character (C0 but newline and
  tab, DEL, C1) printed on stderr, or on stdout outside diffs and stdin output.
- other failure: any other broken promise: the wrong exit code, a due file left unchanged without a
  message, a write not reported (or reported but not done), a temporary file left behind, workers
  alive after the command ended, peak memory of the big file more than 10 times its size above the
  peak of a run over one small file.
- skipped: the case cannot run here (named with the reason); not counted as a failure.

Disk full is not simulated (it needs a small file system, which needs root tricks); a write that
fails is simulated with RLIMIT_FSIZE instead (the file grows past the limit: EFBIG).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # lsp_raw

from torture_files import theme_filesystem, theme_names
from torture_inputs import theme_configs, theme_encodings, theme_library, theme_notebooks, theme_parsing
from torture_lib import KINDS, Skip, Trial, remove
from torture_runs import theme_command, theme_load, theme_signals
from torture_server import theme_round3, theme_server
from torture_trust import theme_trust

ALL_THEMES = (
    theme_encodings,
    theme_library,
    theme_notebooks,
    theme_configs,
    theme_filesystem,
    theme_names,
    theme_parsing,
    theme_command,
    theme_load,
    theme_signals,
    theme_trust,
    theme_server,
    theme_round3,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a 5 MB big file; skip the slowest cases")
    parser.add_argument("--big-mb", type=int, default=None, help="size of the big file (default 50, quick 5)")
    parser.add_argument("--keep", metavar="DIR", help="build the cases under DIR and leave them there")
    parser.add_argument("--only", metavar="REGEX", help="run only the cases whose id matches REGEX")
    options = parser.parse_args(argv)
    options.big_mb = options.big_mb or (5 if options.quick else 50)
    options.tool = shutil.which("tf24migrate")
    if options.tool is None:
        print(
            "torture: no `tf24migrate` on PATH: install the tool (pip install -e .) and activate its environment"
        )
        return 2
    options.measures = []
    base = Path(options.keep).resolve() if options.keep else Path(tempfile.mkdtemp(prefix="tf24torture-"))
    base.mkdir(parents=True, exist_ok=True)
    totals: Counter[str] = Counter()
    started = time.monotonic()
    try:
        for theme in ALL_THEMES:
            for case_id, item, function in theme(options):
                if options.only and not re.search(options.only, case_id):
                    continue
                folder = base / re.sub(r"[^\w.-]+", "_", case_id)
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir(parents=True)
                trial = Trial(folder, options)
                try:
                    function(trial)
                    kind, detail = trial.outcome()
                except Skip as skip:
                    kind, detail = "skipped", str(skip)
                except Exception:
                    kind, detail = "other failure", "the case itself failed: " + traceback.format_exc(-1)
                    detail = detail.strip().replace("\n", " | ")
                totals["cases"] += 1
                totals[kind] += 1
                print(f"{case_id:<44} item {item:<3} {kind}{': ' + detail if detail else ''}", flush=True)
                if not options.keep:
                    remove(folder)
    finally:
        if not options.keep:
            remove(base)
    for line in options.measures:
        print(line)
    print(
        f"cases {totals['cases']}, bytes lost {totals['bytes lost']}, crashes {totals['crash']}, "
        f"hangs {totals['hang']}, unclear messages {totals['unclear message']}, "
        f"other failures {totals['other failure']} ({totals['skipped']} skipped; "
        f"{time.monotonic() - started:.0f} s)"
    )
    return 1 if any(totals[kind] for kind in KINDS) else 0


if __name__ == "__main__":
    sys.exit(main())
