"""The family's rename-like rules, as rows: TF24403 `data-autotune`."""

from __future__ import annotations

from tf24migrate.model.findings import Severity
from tf24migrate.rules.kinds import RenameSymbol

DATA_AUTOTUNE = RenameSymbol(
    code="TF24403",
    name="data-autotune",
    new_since="2.4",
    old="tensorflow.data.experimental.AUTOTUNE",
    new="tensorflow.data.AUTOTUNE",
    severity=Severity.INFO,
    default=False,
    message="`tf.data.experimental.AUTOTUNE` is `tf.data.AUTOTUNE` from TF 2.4.",
    doc="""
    `tf.data.experimental.AUTOTUNE` is `tf.data.AUTOTUNE` from TF 2.4 (opt-in).

    Both names are the same constant in TF 2.4 through 2.21, so this is a tidy-up, not a fix: the
    rule runs only when selected (`--select TF24403` or `--select TF244`). Imported names are
    renamed in the import statement and at every use.

    Before: `dataset.prefetch(tf.data.experimental.AUTOTUNE)`
    After:  `dataset.prefetch(tf.data.AUTOTUNE)`

    Not rewritten: `tf.compat.v1.data.experimental.AUTOTUNE`, which code written for TF 1 keeps.

    Versions: `tf.data.AUTOTUNE` is exported since TF 2.4 (tensorflow/_api/v2/data/__init__.py of the
    tensorflow-cpu 2.4.0 wheel; absent in 2.3.0); `tf.data.experimental.AUTOTUNE` is still exported in 2.15.1.
    """,
)


RULES = (DATA_AUTOTUNE,)
