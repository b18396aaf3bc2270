"""The family's rename-like rules, as rows: TF24509 `positional-parameters`."""

from __future__ import annotations

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.model.release_diff import PARAMETERS
from tf24migrate.rules.kinds import ShiftedPositionals

# Callables whose change another rule fixes with more knowledge of it (a config object, a
# removed parameter, a rule of its own).
FIXED_ELSEWHERE = {
    "tensorflow.keras.utils.plot_model": "TF24203",
    "tensorflow.keras.utils.model_to_dot": "TF24203",
    "tensorflow.tpu.experimental.embedding.TPUEmbedding": "TF24603",
    "tensorflow.data.experimental.service.DispatchServer": "TF24401",
    "tensorflow.data.experimental.service.WorkerServer": "TF24402",
}

POSITIONAL_PARAMETERS = ShiftedPositionals(
    code="TF24509",
    name="positional-parameters",
    new_since="2.0",
    old_removed="2.4",
    fix=Fix.SAFE,
    severity=Severity.ERROR,
    signatures={name: row for name, row in PARAMETERS.items() if name not in FIXED_ELSEWHERE},
    doc="""
    A public callable whose positional parameters changed in TF 2.4: pass the later arguments by keyword.

    The table is the difference of the signatures of every public callable of the two releases
    (`python -m tf24migrate.dev releases`). In TF 2.4 `implementation` of `tf.keras.layers.LSTM`,
    `GRU`, `LSTMCell`, `GRUCell` and `tf.keras.experimental.PeepholeLSTMCell` is no longer a
    positional parameter (it passes through `**kwargs`), so every positional argument from it on
    binds to the next parameter: `return_sequences` gets the `implementation` value, and so on,
    silently. The positional arguments from the first change on become keywords of the TF 2.3
    signature, which mean the same in TF 2.3 and 2.4. A call passing `*args` is reported, as is a
    keyword TF 2.4 no longer takes at all (`batch_size` of `tf.compat.v1`'s `TPUEmbedding`). The
    callables other rules fix (`plot_model`, `TPUEmbedding`, the tf.data service servers) are theirs.

    Before: `tf.keras.layers.LSTM(64, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True, None, None, None, None, None, None, None, 0.0, 0.0, 2, True)`
    After:  `tf.keras.layers.LSTM(64, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True, None, None, None, None, None, None, None, 0.0, 0.0, implementation=2, return_sequences=True)`

    Versions: the keywords written exist since TF 2.0; the signatures are those of the
    tensorflow-cpu 2.3.0 and 2.4.0 wheels (`inspect.signature`, read by
    `tf24migrate/dev/release_probe.py`), in tf24migrate/model/release_diff.py.
    """,
)

RULES = (POSITIONAL_PARAMETERS,)
