"""The family's rename-like rules, as rows: TF24302 `set-policy`, TF24303 `global-policy`, TF24308 `graph-
rewrite`."""

from __future__ import annotations

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.kinds import RenameSymbol

from ._common import (
    _V1_MIXED_PRECISION,
    EXPERIMENTAL,
    STABLE,
)

SET_POLICY = RenameSymbol(
    code="TF24302",
    name="set-policy",
    new_since="2.4",
    old_removed="2.9",
    old=f"{EXPERIMENTAL}.set_policy",
    new=f"{STABLE}.set_global_policy",
    severity=Severity.ERROR,
    message="`tf.keras.mixed_precision.experimental.set_policy` is "
    "`tf.keras.mixed_precision.set_global_policy` from TF 2.4.",
    doc="""
    `tf.keras.mixed_precision.experimental.set_policy(p)` is
    `tf.keras.mixed_precision.set_global_policy(p)` from TF 2.4.

    One function with two names in TF 2.4; the experimental name is gone from TF 2.9. Uses through
    a module alias keep the alias (see TF24301); an imported `set_policy` is renamed in the import
    and at every use, or imported as `set_global_policy as set_policy` where the file's own names
    would meet the new one (a function of that name, a star import, `__all__`).

    Before: `from tensorflow.keras import mixed_precision` then `mixed_precision.experimental.set_policy("mixed_float16")`
    After:  `from tensorflow.keras import mixed_precision` then `mixed_precision.set_global_policy("mixed_float16")`

    Versions: `set_global_policy` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """,
)


GLOBAL_POLICY = RenameSymbol(
    code="TF24303",
    name="global-policy",
    new_since="2.4",
    old_removed="2.9",
    old=f"{EXPERIMENTAL}.global_policy",
    new=f"{STABLE}.global_policy",
    severity=Severity.ERROR,
    message="`tf.keras.mixed_precision.experimental.global_policy` is "
    "`tf.keras.mixed_precision.global_policy` from TF 2.4.",
    doc="""
    `tf.keras.mixed_precision.experimental.global_policy()` is
    `tf.keras.mixed_precision.global_policy()` from TF 2.4.

    One function with two names in TF 2.4; the experimental name is gone from TF 2.9.

    Before: `policy = tf.keras.mixed_precision.experimental.global_policy()`
    After:  `policy = tf.keras.mixed_precision.global_policy()`

    Versions: the stable `global_policy` is exported since TF 2.4
    (tensorflow/python/keras/api/_v2/keras/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel;
    absent in 2.3.0); the experimental module is exported in keras 2.8.0 and gone in keras 2.9.0
    (keras/api/_v2/keras/mixed_precision/).
    """,
)


GRAPH_REWRITE = RenameSymbol(
    code="TF24308",
    name="graph-rewrite",
    new_since="2.4",
    old_removed="2.6",
    old="tensorflow.train.experimental.enable_mixed_precision_graph_rewrite",
    new=f"{_V1_MIXED_PRECISION}.enable_mixed_precision_graph_rewrite",
    severity=Severity.ERROR,
    fix=Fix.SAFE,
    message="`tf.train.experimental.enable_mixed_precision_graph_rewrite` is deprecated in TF 2.4: call the "
    "`tf.compat.v1.mixed_precision` one.\nThe same rewrite is "
    "`tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite`; consider the Keras policy API instead "
    "(`tf.keras.mixed_precision.set_global_policy('mixed_float16')`).",
    doc="""
    `tf.train.experimental.enable_mixed_precision_graph_rewrite` is deprecated in TF 2.4 and
    gone from TF 2.6: use
    `tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite`.

    The TF 1 name wraps the same optimizers the same way: a Keras `OptimizerV2` (what
    `tf.keras.optimizers.*` were up to TF 2.10, `tf.keras.optimizers.legacy.*` after) comes back
    inside a Keras `LossScaleOptimizer` (checked on TF 2.15), and it also accepts TF 1
    optimizers. The rewrite is safe: it keeps the behaviour wherever the old name ran. The
    better migration, by hand, is the Keras policy API:
    `tf.keras.mixed_precision.set_global_policy("mixed_float16")`. Imported names move to the
    `tf.compat.v1.mixed_precision` import.

    Before: `opt = tf.train.experimental.enable_mixed_precision_graph_rewrite(opt)`
    After:  `opt = tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite(opt)`

    Both names reject the optimizers of Keras 2.11+ (`tf.keras.optimizers.SGD` on TF 2.11–2.15):
    pass a `tf.keras.optimizers.legacy` one there.

    Versions: `tf.compat.v1.mixed_precision.enable_mixed_precision_graph_rewrite` is exported since TF 2.4
    (tensorflow/_api/v2/compat/v1/mixed_precision/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in
    2.3.0); the TF2 name is exported in 2.5.0 and gone in 2.6.0
    (tensorflow/_api/v2/train/experimental/__init__.py).
    """,
)


RULES = (
    SET_POLICY,
    GLOBAL_POLICY,
    GRAPH_REWRITE,
)
