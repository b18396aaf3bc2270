"""The torture lists of issues 11, 31 (`cases_trust.py`) and 46 (`cases_server.py`: the language
server against a hostile client, and the command's new surfaces), run against the installed
`tf24migrate` command and its library, one test a case (its id, the issue's item number).

Run them: `python -m pytest tests/stress/test_torture.py` (`-k ID` for one case; with
`TF24MIGRATE_STRESS=full`, the big cases at full size: `conftest.py`).

The command is the `tf24migrate` installed beside the tests' Python. Each case is built in a
folder of its own, run in fresh processes with a timeout, and classified; a case passes when its
outcome is "ok" and is skipped when it cannot run here.

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

from pathlib import Path
from types import SimpleNamespace

import pytest
from cases_files import theme_filesystem, theme_names
from cases_inputs import theme_configs, theme_encodings, theme_library, theme_notebooks, theme_parsing
from cases_runs import theme_command, theme_load, theme_signals
from cases_server import theme_round3, theme_server
from cases_trust import theme_trust
from knobs import FULL
from trial import Skip, Trial, installed_tool, remove

THEMES = (
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


OPTIONS = SimpleNamespace(
    quick=not FULL, big_mb=50 if FULL else 5, tool=installed_tool(), measures=[], keep=None
)
CASES = [case for theme in THEMES for case in theme(OPTIONS)] if OPTIONS.tool else []


@pytest.mark.skipif(OPTIONS.tool is None, reason="no `tf24migrate` command installed")
@pytest.mark.parametrize(("item", "case"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_torture(item: int, case, tmp_path: Path) -> None:
    folder = tmp_path / "case"
    folder.mkdir()
    trial = Trial(folder, OPTIONS)
    try:
        case(trial)
    except Skip as skip:
        pytest.skip(str(skip))
    finally:
        remove(folder)
    for line in OPTIONS.measures:  # the big cases' figures (shown with -s)
        print(line)
    OPTIONS.measures.clear()
    kind, detail = trial.outcome()
    assert kind == "ok", f"item {item}: {kind}: {detail}"
