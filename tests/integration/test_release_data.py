"""`tf24migrate/model/release_diff.py` is what the real wheels say: regenerated from the TF 2.3.0 and
2.4.0 runtimes (and this environment's TF 2.15.1), it is the committed file byte for byte. When
this fails, run `python -m tf24migrate.dev releases` and read the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from releases import interpreter

from tf24migrate.dev import releases

pytestmark = pytest.mark.tensorflow
COMMITTED = Path(__file__).resolve().parents[2] / "tf24migrate" / "model" / "release_diff.py"


def test_the_release_table_is_current():
    pytest.importorskip("tensorflow", reason="needs TF 2.15.1: the `test-tensorflow` extra")
    old, new = (releases.probe(interpreter(release)) for release in (releases.OLD, releases.NEW))
    later = releases.probe_later()
    assert releases.table_source(old, new, later) == COMMITTED.read_text(encoding="utf-8")
