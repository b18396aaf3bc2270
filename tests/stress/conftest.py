"""The stress suite: the torture cases and the fuzzers of the command and the language server,
each run in fresh processes as a user or an editor runs them, and the server's memory on a big
module. Every test here is `slow`: CI runs them (a few minutes with the default knobs, `knobs.py`);
the fast suite does not."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _result_cache_in_tmp(monkeypatch):
    """The tests' own fixture of that name puts every run's result cache in a folder of its own;
    here the command keeps it where a user's run does (the torture plants and damages it there)."""
    monkeypatch.delenv("TF24MIGRATE_CACHE_DIR", raising=False)
