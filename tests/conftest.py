import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def _result_cache_in_tmp(tmp_path_factory, monkeypatch):
    """Every test's runs keep their result cache in a folder of their own, never in the repository
    or a fixture folder (the command, in process or not, reads `TF24MIGRATE_CACHE_DIR`)."""
    monkeypatch.setenv("TF24MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("result-cache")))
