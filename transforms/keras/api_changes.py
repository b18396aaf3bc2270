"""tf.keras (TF242xx): renamed compile keyword, the `plot_model` signature change, removed utils."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import keyword_arg
from tf24migrate.rules.kinds import RenameKeyword, ReportUse

STEPS_PER_EXECUTION = RenameKeyword(
    code="TF24201",
    name="steps-per-execution",
    new_since="2.4",
    callees=("compile",),
    old="experimental_steps_per_execution",
    new="steps_per_execution",
    severity=Severity.WARNING,
    message="`compile(experimental_steps_per_execution=)` is `steps_per_execution=` from TF 2.4 "
    "(Keras 3 rejects the old keyword).",
    doc="""
    `Model.compile(experimental_steps_per_execution=N)` is `steps_per_execution=N` from TF 2.4.

    Keras 2 still accepts the old keyword with a warning; Keras 3 (the default `tf.keras` from
    TF 2.16) raises `TypeError`. Matched on `.compile(...)` calls by method name.

    Before: `model.compile(optimizer="sgd", loss="mse", experimental_steps_per_execution=8)`
    After:  `model.compile(optimizer="sgd", loss="mse", steps_per_execution=8)`

    Versions: `steps_per_execution=` exists since TF 2.4 (`Model.compile` in
    tensorflow/python/keras/engine/training.py of the tensorflow-cpu 2.4.0 wheel); the old keyword is still
    accepted, with a warning, in keras 2.9.0 (keras/engine/training.py).
    """,
)

# The TF 2.3 signatures; `show_dtype` was inserted after `show_shapes` in 2.4.
_SIGNATURES = {
    "tensorflow.keras.utils.plot_model": (
        "model",
        "to_file",
        "show_shapes",
        "show_layer_names",
        "rankdir",
        "expand_nested",
        "dpi",
    ),
    "tensorflow.keras.utils.model_to_dot": (
        "model",
        "show_shapes",
        "show_layer_names",
        "rankdir",
        "expand_nested",
        "dpi",
        "subgraph",
    ),
}


class PlotModelPositional(Rule):
    """`plot_model` / `model_to_dot` arguments after `show_shapes` must be passed by keyword.

    TF 2.4 inserted `show_dtype` after `show_shapes`, so every positional argument after it
    silently changes meaning (`show_layer_names` would become `show_dtype`, and so on). The
    positional arguments from that point on become keywords of the TF 2.3 signature, which mean
    the same in TF 2.4 and later: from the 4th argument of `plot_model`, and from the 3rd of
    `model_to_dot` (its signature has no `to_file`). Calls passing `*args` are reported.

    Before: `tf.keras.utils.plot_model(model, "model.png", True, False)`
    After:  `tf.keras.utils.plot_model(model, "model.png", True, show_layer_names=False)`

    Versions: the keywords written exist since TF 2.0 (`plot_model` in
    tensorflow_core/python/keras/utils/vis_utils.py of the tensorflow 2.0.0 wheel); `show_dtype` is inserted
    at position 4 in 2.4 (tensorflow/python/keras/utils/vis_utils.py of the tensorflow-cpu 2.4.0 wheel).
    """

    code = "TF24203"
    name = "plot-model-positional"
    new_since = "2.0"
    old_removed = "2.4"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = ("plot_model", "model_to_dot")
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        params = _SIGNATURES.get(ctx.qualified_name(original.func) or "")
        if params is None:
            return updated
        first_shifted = params.index("show_shapes") + 1
        positional = [arg for arg in original.args if arg.keyword is None and not arg.star]
        name = "plot_model" if "to_file" in params else "model_to_dot"
        if any(arg.star == "*" for arg in original.args):
            ctx.report(
                original,
                f"`{name}` gained `show_dtype` after `show_shapes` in TF 2.4: pass the arguments after "
                "`show_shapes` by keyword instead of through `*args`.",
            )
            return updated
        if len(positional) <= first_shifted:
            return updated
        if len(positional) > len(params):
            ctx.report(original, f"`{name}` takes at most {len(params)} positional arguments in TF 2.3.")
            return updated
        args = list(updated.args)
        for index in range(first_shifted, len(positional)):
            args[index] = keyword_arg(params[index], args[index].value, like=args[index])
        replacement = updated.with_changes(args=args)
        return (
            ctx.report(
                original,
                f"`{name}` gained `show_dtype` after `show_shapes` in TF 2.4: pass the later arguments "
                f"by keyword ({', '.join(params[first_shifted : len(positional)])}).",
                replacement=replacement,
            )
            or updated
        )


REMOVED_KERAS_UTILS = ReportUse(
    code="TF24202",
    name="removed-keras-utils",
    old_removed="2.4",
    severity=Severity.ERROR,
    symbols={
        "tensorflow.keras.utils.multi_gpu_model": "`tf.keras.utils.multi_gpu_model` was removed in TF 2.4: "
        "create and compile the model inside `with tf.distribute.MirroredStrategy().scope():` and "
        "train that model directly instead of a `multi_gpu_model(...)` copy.",
        "tensorflow.keras.utils.HDF5Matrix": "`tf.keras.utils.HDF5Matrix` was removed in TF 2.4: read the "
        "HDF5 data with `h5py` (or `tfio.IODataset.from_hdf5` from tensorflow-io) into a "
        "`tf.data.Dataset` and pass that to `fit`.",
        "tensorflow.keras.utils.convert_all_kernels_in_model": "`tf.keras.utils.convert_all_kernels_in_model` "
        "was removed in TF 2.4 (it converted legacy Theano kernels): delete the call.",
        "tensorflow.keras.experimental.terminate_keras_multiprocessing_pools": "`tf.keras.experimental."
        "terminate_keras_multiprocessing_pools` was removed in TF 2.4: delete the call; close worker "
        "pools you create yourself with `pool.close()` or `pool.terminate()` from `multiprocessing`.",
    },
    doc="""
    Four Keras utilities, deprecated in TF 2.3, are gone from TF 2.4 (`AttributeError` on use,
    `ImportError` on import); each finding names what to write instead.

    - `tf.keras.utils.multi_gpu_model`: use `tf.distribute.MirroredStrategy`.
    - `tf.keras.utils.HDF5Matrix`: load the HDF5 file into a `tf.data.Dataset` (h5py, tensorflow-io).
    - `tf.keras.utils.convert_all_kernels_in_model`: legacy Theano kernels; delete the call.
    - `tf.keras.experimental.terminate_keras_multiprocessing_pools`: delete the call.

    Every use is reported: attribute chains (`tf.keras.utils.multi_gpu_model`), imported names and
    the `from tensorflow.keras.utils import ...` line itself. Not rewritten: the replacements change
    how the program is structured.

    Reported: `parallel = tf.keras.utils.multi_gpu_model(model, gpus=2)`
    Write instead: `with tf.distribute.MirroredStrategy().scope(): model = build_model()`

    Versions: all four are exported in TF 2.3 and gone in 2.4
    (tensorflow/python/keras/api/_v2/keras/utils/__init__.py and keras/experimental/__init__.py of the
    tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """,
)
