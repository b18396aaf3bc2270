"""The family's rename-like rules, as rows: TF24201 `steps-per-execution`, TF24202 `removed-keras-utils`,
TF24203 `plot-model-positional`, TF24212 `keras-get-graph`."""

from __future__ import annotations

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.model.release_diff import PARAMETERS
from tf24migrate.rules.base import IMPORTS_TENSORFLOW
from tf24migrate.rules.kinds import RenameKeyword, ReportUse, ShiftedPositionals
from tf24migrate.rules.needles import Pattern, any_of

STEPS_PER_EXECUTION = RenameKeyword(
    code="TF24201",
    name="steps-per-execution",
    new_since="2.4",
    old_removed="2.16",
    callees=("compile",),
    old="experimental_steps_per_execution",
    new="steps_per_execution",
    severity=Severity.ERROR,
    message="`compile(experimental_steps_per_execution=)` is `steps_per_execution=` from TF 2.4.",
    doc="""
    `Model.compile(experimental_steps_per_execution=N)` is `steps_per_execution=N` from TF 2.4.

    Keras 2 still accepts the old keyword with a warning; Keras 3 (the default `tf.keras` from
    TF 2.16) raises `TypeError`. Matched on `.compile(...)` calls by method name; in a file that
    defines a `compile` taking `experimental_steps_per_execution` itself (a wrapper, which a call
    may reach instead), reported, not rewritten.

    Before: `model.compile(optimizer="sgd", loss="mse", experimental_steps_per_execution=8)`
    After:  `model.compile(optimizer="sgd", loss="mse", steps_per_execution=8)`

    Versions: `steps_per_execution=` exists since TF 2.4 (`Model.compile` in
    tensorflow/python/keras/engine/training.py of the tensorflow-cpu 2.4.0 wheel); the old keyword is still
    accepted, with a warning, in keras 2.9.0 (keras/engine/training.py) and keras 2.15.0
    (keras/src/engine/training.py); keras 3.0.0, the `tf.keras` of TF 2.16 and later, has no such
    keyword and no `**kwargs` (`Trainer.compile` in keras/src/trainers/trainer.py): a `TypeError`.
    """,
)


_REMOVED_UTILS = {
    "tensorflow.keras.utils.multi_gpu_model": "`tf.keras.utils.multi_gpu_model` was removed in TF 2.4: "
    "use a `MirroredStrategy` scope.\nCreate and compile the model inside `with tf.distribute.MirroredStrategy().scope():` and "
    "train that model directly instead of a `multi_gpu_model(...)` copy.",
    "tensorflow.keras.utils.HDF5Matrix": "`tf.keras.utils.HDF5Matrix` was removed in TF 2.4: use a "
    "`tf.data.Dataset`.\nRead the HDF5 data with `h5py` (or `tfio.IODataset.from_hdf5` from tensorflow-io) into a "
    "`tf.data.Dataset` and pass that to `fit`.",
    "tensorflow.keras.utils.convert_all_kernels_in_model": "`tf.keras.utils.convert_all_kernels_in_model` "
    "was removed in TF 2.4 (it converted legacy Theano kernels): delete the call.",
    "tensorflow.keras.experimental.terminate_keras_multiprocessing_pools": "`tf.keras.experimental."
    "terminate_keras_multiprocessing_pools` was removed in TF 2.4: delete the call.\nClose worker "
    "pools you create yourself with `pool.close()` or `pool.terminate()` from `multiprocessing`.",
}

# standalone `keras` name -> the `tf.keras` name it forwards to (keras 2.4's utils and their
# modules as keras 2.3 spelled them)
_STANDALONE_KERAS = {
    "keras.utils.multi_gpu_model": "tensorflow.keras.utils.multi_gpu_model",
    "keras.utils.multi_gpu_utils.multi_gpu_model": "tensorflow.keras.utils.multi_gpu_model",
    "keras.utils.training_utils.multi_gpu_model": "tensorflow.keras.utils.multi_gpu_model",
    "keras.utils.HDF5Matrix": "tensorflow.keras.utils.HDF5Matrix",
    "keras.utils.io_utils.HDF5Matrix": "tensorflow.keras.utils.HDF5Matrix",
    "keras.utils.convert_all_kernels_in_model": "tensorflow.keras.utils.convert_all_kernels_in_model",
}

REMOVED_KERAS_UTILS = ReportUse(
    code="TF24202",
    name="removed-keras-utils",
    old_removed="2.4",
    severity=Severity.ERROR,
    symbols=_REMOVED_UTILS
    | {
        # The standalone `keras` 2.4 package forwards to `tf.keras`: the same names are gone with TF 2.4.
        standalone: _REMOVED_UTILS[public].replace("`tf.keras.", "`keras.", 1)
        for standalone, public in _STANDALONE_KERAS.items()
    },
    # a file that imports only the standalone `keras` package counts too
    requires=(any_of(*IMPORTS_TENSORFLOW, Pattern(r"\b(?:from|import)[ \t]+keras\b", "keras")),),
    doc="""
    Four Keras utilities, deprecated in TF 2.3, are gone from TF 2.4 (`AttributeError` on use,
    `ImportError` on import); each finding names what to write instead.

    - `tf.keras.utils.multi_gpu_model`: use `tf.distribute.MirroredStrategy`.
    - `tf.keras.utils.HDF5Matrix`: load the HDF5 file into a `tf.data.Dataset` (h5py, tensorflow-io).
    - `tf.keras.utils.convert_all_kernels_in_model`: legacy Theano kernels; delete the call.
    - `tf.keras.experimental.terminate_keras_multiprocessing_pools`: delete the call.

    Every use is reported: attribute chains (`tf.keras.utils.multi_gpu_model`), imported names and
    the `from tensorflow.keras.utils import ...` line itself; and the same utilities of the
    standalone `keras` package (`from keras.utils import multi_gpu_model`), whose 2.4 release
    forwards to `tf.keras`. Not rewritten: the replacements change
    how the program is structured.

    Reported: `parallel = tf.keras.utils.multi_gpu_model(model, gpus=2)`
    Write instead: `with tf.distribute.MirroredStrategy().scope(): model = build_model()`

    Versions: all four are exported in TF 2.3 and gone in 2.4
    (tensorflow/python/keras/api/_v2/keras/utils/__init__.py and keras/experimental/__init__.py of the
    tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """,
)


PLOT_MODEL_POSITIONAL = ShiftedPositionals(
    code="TF24203",
    name="plot-model-positional",
    new_since="2.0",
    old_removed="2.4",
    fix=Fix.SAFE,
    severity=Severity.ERROR,
    signatures={
        name: PARAMETERS[name]
        for name in ("tensorflow.keras.utils.plot_model", "tensorflow.keras.utils.model_to_dot")
    },
    doc="""
    `plot_model` / `model_to_dot` arguments after `show_shapes` must be passed by keyword.

    TF 2.4 inserted `show_dtype` after `show_shapes`, so every positional argument after it
    silently changes meaning (`show_layer_names` would become `show_dtype`, and so on). The
    positional arguments from that point on become keywords of the TF 2.3 signature, which mean
    the same in TF 2.4 and later: from the 4th argument of `plot_model`, and from the 3rd of
    `model_to_dot` (its signature has no `to_file`). Calls passing `*args` are reported.

    Before: `tf.keras.utils.plot_model(model, "model.png", True, False)`
    After:  `tf.keras.utils.plot_model(model, "model.png", True, show_layer_names=False)`

    Versions: the keywords written exist since TF 2.0 (`plot_model` in
    tensorflow_core/python/keras/utils/vis_utils.py of the tensorflow 2.0.0 wheel); `show_dtype` is inserted
    at position 4 in 2.4 (the signatures of the tensorflow-cpu 2.3.0 and 2.4.0 wheels, in
    tf24migrate/model/release_diff.py).
    """,
)


KERAS_GET_GRAPH = ReportUse(
    code="TF24212",
    name="keras-get-graph",
    changed_in="2.4",
    severity=Severity.INFO,
    symbols={
        qualified: "Functional models no longer need the Keras graph from TF 2.4: take "
        "`get_graph().as_default()` out of its `with` (keep any other context there, such as a "
        "`tf.name_scope`).\nThey are built from symbolic `KerasTensor`s: build the model directly; "
        "`get_graph` is not in the public TF 2 `tf.keras.backend`."
        for qualified in ("tensorflow.keras.backend.get_graph", "tensorflow.python.keras.backend.get_graph")
    },
    doc="""
    Entering `tf.keras.backend.get_graph()` before building a functional model is not needed from
    TF 2.4.

    Functional models are built from symbolic `KerasTensor`s, outside any graph; `get_graph` is an
    internal function that the public TF 2 `tf.keras.backend` does not export. A note, not a
    warning: a functional model built inside the block still works on TF 2.4 (executed on 2.4.0), only
    the way it is built changed.
    Not rewritten: removing the `with` block re-indents its body, which is left to you. The internal
    `tensorflow.python.keras.backend.get_graph` is reported in any file but TensorFlow's own
    sources (a file in a `tensorflow` package), also one that imports only internals.

    Reported: `from tensorflow.keras import backend as K, layers` then `with K.get_graph().as_default(): outputs = layers.Dense(10)(inputs)`
    Write instead: `outputs = layers.Dense(10)(inputs)`

    Versions: the Functional API change is in TF 2.4's release notes.
    """,
)


RULES = (
    STEPS_PER_EXECUTION,
    REMOVED_KERAS_UTILS,
    PLOT_MODEL_POSITIONAL,
    KERAS_GET_GRAPH,
)
