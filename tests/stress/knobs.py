"""The stress suite's knobs, environment variables, for long runs by hand:
- `TF24MIGRATE_STRESS_MINUTES`: how long each fuzzer runs (default 0.5; an hour's run of both,
  side by side: `TF24MIGRATE_STRESS_MINUTES=60 TF24MIGRATE_STRESS_SEED=random
  TF24MIGRATE_STRESS_LOG=DIR nice python -m pytest tests/stress -k fuzz -n 2`, the totals the last
  line of each log in DIR);
- `TF24MIGRATE_STRESS=full`: the torture's big cases at full size (a 50 MB file, 20,000 small
  files, 400 standard-library files) instead of 5 MB, 2,000 and 100, and the server's memory on a
  29 MB module (nine tenths of the longest message it reads) instead of 5 MB;
- `TF24MIGRATE_STRESS_SEED`: the seed a fuzzer starts from (a finding names the one that reruns it;
  with `TF24MIGRATE_STRESS_SESSIONS=1`, only that session or run); `random` for a new one each run,
  as long runs by hand want. Unset, `DEFAULT_SEED`: a run of the suite (CI's) is the same sequence
  every time, so that it fails for a change made, never for the draw of a run; what random long
  runs find, and not yet fixed, stays in the project's issues;
- `TF24MIGRATE_STRESS_LOG`: the folder the fuzzers log their findings to (and keep each finding's
  case in), instead of the test's temporary folder.
"""

from __future__ import annotations

import os

MINUTES = float(os.environ.get("TF24MIGRATE_STRESS_MINUTES", "0.5"))
FULL = os.environ.get("TF24MIGRATE_STRESS", "") == "full"
DEFAULT_SEED = 7
_SEED = os.environ.get("TF24MIGRATE_STRESS_SEED", "")
SEED = None if _SEED == "random" else int(_SEED) if _SEED else DEFAULT_SEED
SESSIONS = (
    int(os.environ["TF24MIGRATE_STRESS_SESSIONS"]) if os.environ.get("TF24MIGRATE_STRESS_SESSIONS") else None
)
LOG = os.environ.get("TF24MIGRATE_STRESS_LOG")
