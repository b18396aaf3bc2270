"""The family's rename-like rules, as rows: TF24509 `positional-parameters`, TF24511
`internal-parameters`."""

from __future__ import annotations

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.model.release_diff import INTERNAL_PARAMETERS, METHODS, PARAMETERS
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

# Methods whose parameter was renamed in its place: the cross-replica reductions'
# `experimental_hints`, `options` in TF 2.4. A positional argument binds the same; the keyword is
# TF24103's in the calls users write (`reduce_to`, `all_reduce`, ...), and `CrossDeviceOps`'s
# `*_implementation` methods are overridden by subclasses, not called.
METHODS_RENAMED_IN_PLACE = frozenset(
    {
        "all_reduce",
        "batch_reduce",
        "batch_reduce_implementation",
        "batch_reduce_to",
        "reduce",
        "reduce_implementation",
        "reduce_to",
    }
)

POSITIONAL_PARAMETERS = ShiftedPositionals(
    code="TF24509",
    name="positional-parameters",
    new_since="2.0",
    old_removed="2.4",
    fix=Fix.SAFE,
    severity=Severity.ERROR,
    signatures={name: row for name, row in PARAMETERS.items() if name not in FIXED_ELSEWHERE},
    ignored={
        "partitioner": "`add_weight` takes it through `**kwargs` and drops it, so the variable is not "
        "partitioned; TF 2.4 partitions variables with `ParameterServerStrategy(variable_partitioner=...)`"
    },
    methods={
        (cls, method): row
        for changed, classes in METHODS
        for method, row in changed
        if method not in METHODS_RENAMED_IN_PLACE
        for cls in classes
    },
    doc="""
    A public callable or method whose positional parameters changed in TF 2.4: pass the later arguments by keyword.

    The table is the difference of the signatures of every public callable of the two releases
    (`python -m tf24migrate.dev releases`). In TF 2.4 `implementation` of `tf.keras.layers.LSTM`,
    `GRU`, `LSTMCell`, `GRUCell` and `tf.keras.experimental.PeepholeLSTMCell` is no longer a
    positional parameter (it passes through `**kwargs`), so every positional argument from it on
    binds to the next parameter: `return_sequences` gets the `implementation` value, and so on,
    silently. The positional arguments from the first change on become keywords of the TF 2.3
    signature, which mean the same in TF 2.3 and 2.4. A call passing `*args` is reported, as is a
    keyword TF 2.4 no longer takes at all (`batch_size` of `tf.compat.v1`'s `TPUEmbedding`). The
    callables other rules fix (`plot_model`, `TPUEmbedding`, the tf.data service servers) are theirs.

    Methods too: `Layer.add_weight` lost `partitioner` in TF 2.4, so `self.add_weight(name,
    shape, dtype, initializer, regularizer, trainable, constraint, None, None, sync)` gives
    `use_resource` the `None` and `synchronization` nothing. A `partitioner` other than `None`
    still becomes `partitioner=`, and the message says TF 2.4 drops it. A call `x.m(...)` is checked where
    the file shows what `x` is: `self` (or `super()`) in a method of a class whose bases resolve,
    through the file's imports and its own classes, to one public TF class holding `m`, unless
    the class or a class of the file in between defines `m` itself; or a name bound once in the
    same scope to a construction of such a class (`layer = tf.keras.layers.Dense(3)`). A base
    that cannot be resolved (imported from another package, computed), a class of the file
    named like TF's, or a receiver bound twice: nothing. A method's call passing `*args` is not
    reported (an override passing its own arguments on). In a file that defines a method of that
    name elsewhere (an override in a derived class, one patched onto a class) taking other
    parameters than the keywords written, the call is reported, not rewritten: it may reach that method. The cross-replica reductions'
    `experimental_hints`, renamed `options` in the same position, bind the same by position:
    left alone (TF24103 renames the keyword).

    Before: `tf.keras.layers.LSTM(64, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True, None, None, None, None, None, None, None, 0.0, 0.0, 2, True)`
    After:  `tf.keras.layers.LSTM(64, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True, None, None, None, None, None, None, None, 0.0, 0.0, implementation=2, return_sequences=True)`

    Versions: the keywords written exist since TF 2.0; the signatures are those of the
    tensorflow-cpu 2.3.0 and 2.4.0 wheels (`inspect.signature`, read by
    `tf24migrate/dev/release_probe.py`), in tf24migrate/model/release_diff.py. `add_weight` of TF
    2.4 to 2.15 takes `partitioner=` through `**kwargs` and ignores it (`kwargs.pop('partitioner',
    None)` in tensorflow/python/keras/engine/base_layer.py of the 2.4.0 wheel, and in Keras 2.15's).
    """,
)

INTERNAL_POSITIONAL_PARAMETERS = ShiftedPositionals(
    code="TF24511",
    name="internal-parameters",
    new_since="2.3",  # the keywords written are TF 2.3's own: no older release was read
    old_removed="2.4",
    fix=Fix.SAFE,
    severity=Severity.ERROR,
    signatures=INTERNAL_PARAMETERS,
    requires=("tensorflow.python",),
    advice="Internal modules change between releases: prefer the public `tf.*` API.",
    doc="""
    A callable of TensorFlow's internal modules whose parameters changed in TF 2.4: pass the later arguments by keyword.

    TF24509's check, for what code imports from `tensorflow.python` rather than the public API:
    the table is the difference of the parameters of every function and class (its `__init__`)
    that a module of both releases defines, read from the wheels' sources (`python -m
    tf24migrate.dev releases`). `freeze_graph.freeze_graph` and
    `convert_to_constants.convert_variables_to_constants_from_session_graph` took
    `variable_names_denylist` (and `_allowlist`) in place of `variable_names_blacklist`
    (`_whitelist`), so a call passing the old keyword raises TypeError; the recurrent layers'
    `implementation` stopped being positional; `server_lib.DispatchServer(port)` takes a config.
    A keyword TF 2.4 no longer takes is reported where it is passed, naming the parameter at its
    place; positional arguments from the first change on become keywords of the TF 2.3 signature
    where TF 2.4 still takes them, as TF24509 writes them. A positional argument whose place a new
    parameter took is reported (`np_array_ops.pad`'s `ary`, `array` in TF 2.4): its TF 2.3 keyword
    would land in TF 2.4's `**kwargs`, which never reads it. Quiet in TensorFlow's own sources.

    Before: `from tensorflow.python.keras.layers import recurrent` then `layer = recurrent.LSTM(4, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True, None, None, None, None, None, None, None, 0.0, 0.0, 2, True)`
    After:  `from tensorflow.python.keras.layers import recurrent` then `layer = recurrent.LSTM(4, "tanh", "sigmoid", True, "glorot_uniform", "orthogonal", "zeros", True, None, None, None, None, None, None, None, 0.0, 0.0, implementation=2, return_sequences=True)`

    Reported: `from tensorflow.python.tools import freeze_graph` then `freeze_graph.freeze_graph(graph, "", False, checkpoint, "out", "", "", frozen, True, "", variable_names_blacklist="global_step")`
    Write instead: `from tensorflow.python.tools import freeze_graph` then `freeze_graph.freeze_graph(graph, "", False, checkpoint, "out", "", "", frozen, True, "", variable_names_denylist="global_step")`

    Versions: the parameters are those of the tensorflow-cpu 2.3.0 and 2.4.0 wheels' sources (read
    by `tf24migrate/dev/release_probe.py`), in tf24migrate/model/release_diff.py.
    """,
)

RULES = (POSITIONAL_PARAMETERS, INTERNAL_POSITIONAL_PARAMETERS)
