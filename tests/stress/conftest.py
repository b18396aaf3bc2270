"""The stress suite: the torture cases and the fuzzers of the command and the language server,
each run in fresh processes as a user or an editor runs them. Every test here is `slow`: CI runs
them (a few minutes); the fast suite does not.

Two knobs, environment variables, for long runs by hand:
- `TF24MIGRATE_STRESS_MINUTES`: how long each fuzzer runs (default 0.5 minutes; an hour's run:
  `TF24MIGRATE_STRESS_MINUTES=30 python -m pytest tests/stress -k fuzz -n 2`);
- `TF24MIGRATE_STRESS=full`: the torture's big cases at full size (a 50 MB file, 20,000 small
  files, 400 standard-library files) instead of 5 MB, 2,000 and 100.
A fuzzer's findings name the seed that reruns them (`TF24MIGRATE_STRESS_SEED`).
"""

from __future__ import annotations

import os

import pytest

MINUTES = float(os.environ.get("TF24MIGRATE_STRESS_MINUTES", "0.5"))
FULL = os.environ.get("TF24MIGRATE_STRESS", "") == "full"
SEED = os.environ.get("TF24MIGRATE_STRESS_SEED")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.slow)
