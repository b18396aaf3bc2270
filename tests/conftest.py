import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

# A suite started in the background by a shell without job control (`nohup ... &`) inherits SIGINT
# ignored, and so would every command a test starts (Python keeps an ignored SIGINT ignored): the
# tests that press Ctrl-C on a command would see it run to its end. Ctrl-C as from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _result_cache_in_tmp(tmp_path_factory, monkeypatch):
    """Every test's runs keep their result cache in a folder of their own, never in the repository
    or a fixture folder (the command, in process or not, reads `TF24MIGRATE_CACHE_DIR`)."""
    monkeypatch.setenv("TF24MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("result-cache")))
