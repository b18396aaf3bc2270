"""tf.distribute (TF241xx): renamed strategy methods, hints and communication options, the removed
`experimental_make_numpy_dataset`, and the TF 2.3 `ParameterServerStrategy`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import (
    UnboundArguments,
    bind_arguments,
    bind_or_report,
    code_for,
    keep_arguments,
    rebuild_args,
)
from tf24migrate.rules.edits import DropUse
from tf24migrate.rules.kinds import RenameKeyword, RenameMethod, RenameSymbol
from tf24migrate.rules.needles import attribute

EXPERIMENTAL = "tensorflow.distribute.experimental"

EXPERIMENTAL_RUN_V2 = RenameMethod(
    code="TF24101",
    name="experimental-run-v2",
    new_since="2.2",
    old_removed="2.4",
    old="experimental_run_v2",
    new="run",
    severity=Severity.ERROR,
    message="`experimental_run_v2` was removed in TF 2.4: call `run` (same arguments).",
    doc="""
    `Strategy.experimental_run_v2` was removed in TF 2.4; `Strategy.run` takes the same arguments.

    Matched by method name on any receiver (the name exists only in TensorFlow), including the bare
    attribute `strategy.experimental_run_v2` passed around as a function.

    Before: `strategy.experimental_run_v2(step_fn, args=(batch,))`
    After:  `strategy.run(step_fn, args=(batch,))`

    Versions: `Strategy.run` exists since TF 2.2 (`def run` in tensorflow/python/distribute/distribute_lib.py
    of the tensorflow-cpu 2.2.0 wheel, where `experimental_run_v2` is a deprecated alias);
    `experimental_run_v2` is gone from that file in the 2.4.0 wheel.
    """,
)

DISTRIBUTE_DATASETS_FROM_FUNCTION = RenameMethod(
    code="TF24102",
    name="distribute-datasets-from-function",
    new_since="2.4",
    old="experimental_distribute_datasets_from_function",
    new="distribute_datasets_from_function",
    severity=Severity.WARNING,
    message="`experimental_distribute_datasets_from_function` is deprecated since TF 2.4: "
    "call `distribute_datasets_from_function` (same arguments).",
    doc="""
    `Strategy.experimental_distribute_datasets_from_function` became `distribute_datasets_from_function`.

    The old name is a deprecated alias from TF 2.4 on. Matched by method name on any receiver.

    Before: `strategy.experimental_distribute_datasets_from_function(dataset_fn)`
    After:  `strategy.distribute_datasets_from_function(dataset_fn)`

    Versions: `distribute_datasets_from_function` exists since TF 2.4 (first defined in
    tensorflow/python/distribute/distribute_lib.py of the tensorflow-cpu 2.4.0 wheel; absent in 2.3.0); the
    old name is still a deprecated alias in the 2.15.1 wheel.
    """,
)

EXPERIMENTAL_HINTS_KEYWORD = RenameKeyword(
    code="TF24103",
    name="experimental-hints-keyword",
    new_since="2.4",
    old_removed="2.4",
    callees=("all_reduce", "reduce_to", "batch_reduce_to", "reduce", "batch_reduce"),
    old="experimental_hints",
    new="options",
    severity=Severity.ERROR,
    message="The keyword `experimental_hints=` was renamed `options=` in TF 2.4 "
    "(the old keyword raises TypeError).",
    doc="""
    The keyword `experimental_hints=` of the cross-replica reductions is `options=` in TF 2.4.

    Applies to calls of `.all_reduce`, `.reduce_to`, `.batch_reduce_to` (and `CrossDeviceOps`'s
    `.reduce` / `.batch_reduce`), matched by method name. The parameter kept its position, so
    positional uses need no change. TF 2.4 has no fallback: the old keyword raises `TypeError`.

    Before: `ctx.all_reduce("sum", value, experimental_hints=hints)`
    After:  `ctx.all_reduce("sum", value, options=hints)`

    Versions: `options=` exists since TF 2.4 and `experimental_hints=` is gone there (the signatures of
    `reduce_to`, `batch_reduce_to` and `all_reduce` in tensorflow/python/distribute/distribute_lib.py, and of
    `CrossDeviceOps.reduce` and `batch_reduce` in tensorflow/python/distribute/cross_device_ops.py,
    tensorflow-cpu 2.3.0 and 2.4.0 wheels).
    """,
)

COLLECTIVE_HINTS = RenameSymbol(
    code="TF24104",
    name="collective-hints",
    new_since="2.4",
    old=f"{EXPERIMENTAL}.CollectiveHints",
    new=f"{EXPERIMENTAL}.CommunicationOptions",
    severity=Severity.WARNING,
    doc="""
    `tf.distribute.experimental.CollectiveHints` was renamed `CommunicationOptions` in TF 2.4.

    The arguments are the same (`bytes_per_pack`, first positionally in both); the old name is a
    deprecated alias. Imported names are renamed in the import statement and at every use.

    Before: `tf.distribute.experimental.CollectiveHints(bytes_per_pack=32 * 1024 * 1024)`
    After:  `tf.distribute.experimental.CommunicationOptions(bytes_per_pack=32 * 1024 * 1024)`

    Versions: `CommunicationOptions` is exported since TF 2.4
    (tensorflow/_api/v2/distribute/experimental/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in
    2.3.0); `CollectiveHints` is still exported in 2.15.1.
    """,
)

COLLECTIVE_COMMUNICATION = RenameSymbol(
    code="TF24105",
    name="collective-communication",
    new_since="2.4",
    old=f"{EXPERIMENTAL}.CollectiveCommunication",
    new=f"{EXPERIMENTAL}.CommunicationImplementation",
    severity=Severity.INFO,
    doc="""
    `tf.distribute.experimental.CollectiveCommunication` was renamed `CommunicationImplementation`.

    Both names are the same enum (`AUTO`, `RING`, `NCCL`) from TF 2.4 on; the new name is the one
    `CommunicationOptions(implementation=...)` documents.

    Before: `tf.distribute.experimental.CollectiveCommunication.RING`
    After:  `tf.distribute.experimental.CommunicationImplementation.RING`

    Versions: `CommunicationImplementation` is exported since TF 2.4
    (tensorflow/_api/v2/distribute/experimental/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in
    2.3.0); `CollectiveCommunication` is still exported in 2.15.1.
    """,
)

_MWMS_OLD = f"{EXPERIMENTAL}.MultiWorkerMirroredStrategy"
_MWMS_NEW = "tensorflow.distribute.MultiWorkerMirroredStrategy"
_AUTO = {f"{EXPERIMENTAL}.CollectiveCommunication.AUTO", f"{EXPERIMENTAL}.CommunicationImplementation.AUTO"}


class MultiWorkerMirroredStrategy(Rule):
    """`tf.distribute.experimental.MultiWorkerMirroredStrategy` is stable in TF 2.4 as
    `tf.distribute.MultiWorkerMirroredStrategy`, with a new signature.

    The experimental constructor is `(communication, cluster_resolver)`; the stable one is
    `(cluster_resolver, communication_options)`, with the communication implementation inside a
    `CommunicationOptions`. The rewrite always uses keywords, in the new order, and only for the
    arguments given; `communication_options` is dropped when the implementation is `AUTO` (the
    default). A `CollectiveCommunication` member passed in is renamed by TF24105 in the same run.
    Calls with `*args` / `**kwargs` are reported, not rewritten.

    Before: `tf.distribute.experimental.MultiWorkerMirroredStrategy(tf.distribute.experimental.CollectiveCommunication.RING)`
    After:  `tf.distribute.MultiWorkerMirroredStrategy(communication_options=tf.distribute.experimental.CommunicationOptions(implementation=tf.distribute.experimental.CollectiveCommunication.RING))` (and TF24105 renames `CollectiveCommunication`)

    Versions: `tf.distribute.MultiWorkerMirroredStrategy` and `CommunicationOptions` are exported since TF 2.4
    (tensorflow/_api/v2/distribute/__init__.py and distribute/experimental/__init__.py of the tensorflow-cpu
    2.4.0 wheel; absent in 2.3.0); the experimental name is still exported, deprecated, in 2.15.1.
    """

    code = "TF24107"
    name = "multi-worker-mirrored-strategy"
    new_since = "2.4"
    fix = Fix.SAFE
    severity = Severity.WARNING
    triggers = ("MultiWorkerMirroredStrategy",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != _MWMS_OLD:
            return updated
        message = "`tf.distribute.experimental.MultiWorkerMirroredStrategy` is stable in TF 2.4"
        try:
            bound = bind_arguments(original.args, ("communication", "cluster_resolver"))
        except UnboundArguments as problem:
            ctx.report(
                original,
                f"{message}: rewrite the call by hand as `tf.distribute.MultiWorkerMirroredStrategy("
                f"cluster_resolver=..., communication_options=tf.distribute.experimental."
                f"CommunicationOptions(implementation=...))`; {problem}.",
            )
            return updated
        updated_args = {id(o): u for o, u in zip(original.args, updated.args, strict=True)}
        new_args: list[tuple[str, cst.BaseExpression]] = []
        if "cluster_resolver" in bound:
            new_args.append(("cluster_resolver", updated_args[id(bound["cluster_resolver"])].value))
        communication = bound.get("communication")
        if communication is not None and ctx.qualified_name(communication.value) not in _AUTO:
            options = ctx.spell(f"{EXPERIMENTAL}.CommunicationOptions", like=original.func)
            if options is None:
                ctx.report(
                    original, f"{message}: no way to name TensorFlow in this file; rewrite it by hand."
                )
                return updated
            value = updated_args[id(communication)].value
            new_args.append(
                (
                    "communication_options",
                    cst.Call(options, [cst.Arg(value, keyword=cst.Name("implementation"), equal=_equal())]),
                )
            )
        func = ctx.spell(_MWMS_NEW, like=original.func)
        edits = (
            [DropUse(original.func)]
            if isinstance(original.func, cst.Name)
            and func is not None
            and code_for(func) != original.func.value
            else []
        )
        if func is None:
            ctx.report(original, f"{message}: no way to name TensorFlow in this file; rewrite it by hand.")
            return updated
        replacement = updated.with_changes(func=func, args=rebuild_args(updated.args, new_args))
        if not new_args:
            replacement = replacement.with_changes(whitespace_before_args=cst.SimpleWhitespace(""))
        return (
            ctx.report(
                original,
                f"{message}: use `tf.distribute.MultiWorkerMirroredStrategy` with "
                "`cluster_resolver=` and `communication_options=`.",
                replacement=replacement,
                edits=edits,
            )
            or updated
        )


def _equal() -> cst.AssignEqual:
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )


class MakeNumpyDataset(Rule):
    """`strategy.experimental_make_numpy_dataset(x)` was removed from TF 2.4's `tf.distribute.Strategy`:
    use `tf.data.Dataset.from_tensor_slices(x)`.

    This is the replacement the TF 2.3 deprecation message names. The old method copied the arrays
    into host variables, then called `from_tensor_slices` on them: the dataset's elements, dtypes
    and shapes are the same; only where the data is stored differs (a constant instead of host
    variables, which matters only for TF 1 graphs over 2 GB). The dataset is still not
    distributed: follow it with `strategy.experimental_distribute_dataset` as before. Matched by
    method name on any receiver; `tf.data` is spelled with the file's own TensorFlow import
    (`import tensorflow as tf` is added only when the file has none).

    Before: `dataset = strategy.experimental_make_numpy_dataset((features, labels))`
    After:  `dataset = tf.data.Dataset.from_tensor_slices((features, labels))`

    Not rewritten: calls passing `session=` (or a second argument), which only the TF 1
    `tf.compat.v1.distribute.Strategy` accepts, and still does.

    Versions: `tf.data.Dataset.from_tensor_slices` exists since TF 2.0
    (tensorflow_core/python/data/ops/dataset_ops.py of the tensorflow 2.0.0 wheel); the TF2
    `Strategy.experimental_make_numpy_dataset` is gone in 2.4 (tensorflow/python/distribute/distribute_lib.py
    of the 2.4.0 wheel keeps it only on the compat.v1 classes).
    """

    code = "TF24106"
    name = "make-numpy-dataset"
    new_since = "2.0"
    old_removed = "2.4"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = (attribute("experimental_make_numpy_dataset"),)
    follows = ()  # the call of the method is the whole match

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "experimental_make_numpy_dataset":
            return updated
        if ctx.resolves_to_module_other_than_tensorflow(func):
            return updated
        message = (
            "`Strategy.experimental_make_numpy_dataset` was removed in TF 2.4: "
            "use `tf.data.Dataset.from_tensor_slices` (same elements)"
        )
        bound = bind_or_report(ctx, original, ("numpy_input", "session"), message)
        if bound is None:
            return updated
        if "session" in bound or "numpy_input" not in bound:
            return updated  # the TF 1 strategy API, which kept the method
        from_tensor_slices = ctx.spell("tensorflow.data.Dataset.from_tensor_slices")
        if from_tensor_slices is None:
            ctx.report(original, f"{message}; this file has no way to name TensorFlow.")
            return updated
        value = updated.args[original.args.index(bound["numpy_input"])]
        kept = keep_arguments(updated, [value])
        arg = kept.args[0].with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        replacement = kept.with_changes(func=from_tensor_slices, args=[arg])
        return ctx.report(original, f"{message}.", replacement=replacement) or updated


_PSS_OLD = f"{EXPERIMENTAL}.ParameterServerStrategy"
_PSS_V1 = "tensorflow.compat.v1.distribute.experimental.ParameterServerStrategy"


class ParameterServerStrategy(Rule):
    """`tf.distribute.experimental.ParameterServerStrategy` names a different class from TF 2.4:
    code written for TF 2.0–2.3 needs `tf.compat.v1.distribute.experimental.ParameterServerStrategy`.

    TF 2.4 gave the name to the new `ParameterServerStrategyV2(cluster_resolver,
    variable_partitioner=None)`, meant for `ClusterCoordinator`; the TF 2.3 class is reachable
    only under `tf.compat.v1`. The fix keeps the old class and its arguments. It is unsafe
    (applied with `--unsafe-fixes`): the old class is a TF 1 `StrategyV1`, which suits Estimator,
    its documented use, but review custom training loops (`strategy.run`), or move them to the
    new class with `ClusterCoordinator`.

    Before: `strategy = tf.distribute.experimental.ParameterServerStrategy()`
    After:  `strategy = tf.compat.v1.distribute.experimental.ParameterServerStrategy()`

    No finding where the call already looks like TF 2.4 code: it passes `variable_partitioner=`,
    or the file mentions `ClusterCoordinator`. References that are not calls are left alone.

    Versions: `tf.compat.v1.distribute.experimental.ParameterServerStrategy` exists since TF 2.0
    (tensorflow_core/_api/v2/compat/v1/distribute/experimental/__init__.py of the tensorflow 2.0.0 wheel);
    from TF 2.4 the TF2 name is another class (`ParameterServerStrategyV2` in
    tensorflow/_api/v2/distribute/experimental/__init__.py of the tensorflow-cpu 2.4.0 wheel).
    """

    code = "TF24108"
    name = "parameter-server-strategy"
    new_since = "2.0"
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.WARNING
    triggers = ("ParameterServerStrategy",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx, original: cst.Call, updated: cst.Call):
        if ctx.qualified_name(original.func) != _PSS_OLD or "ClusterCoordinator" in ctx.source:
            return updated
        if any(
            arg.keyword is not None and arg.keyword.value == "variable_partitioner" for arg in original.args
        ):
            return updated
        message = (
            "`tf.distribute.experimental.ParameterServerStrategy` is a new class in TF 2.4 (for "
            "`ClusterCoordinator`); the TF 2.3 class is `tf.compat.v1.distribute.experimental."
            "ParameterServerStrategy`, a TF 1 strategy: review its use outside Estimator."
        )
        func = ctx.spell(_PSS_V1, like=original.func)
        if func is None:
            ctx.report(original, message)
            return updated
        return ctx.report(original, message, replacement=updated.with_changes(func=func)) or updated


_REDUCTION_METHODS = {
    "reduce_implementation",
    "batch_reduce_implementation",
    "reduce_to",
    "batch_reduce_to",
    "all_reduce",
}


class HintsParameterOverride(Rule):
    """A method that overrides a TF reduction with an `experimental_hints` parameter must rename it
    `options`.

    TF 2.4 calls `reduce_implementation`, `batch_reduce_implementation`, `reduce_to`,
    `batch_reduce_to` and `all_reduce` with `options=`, so a subclass of `CrossDeviceOps`,
    `StrategyExtended` or `ReplicaContext` that still names the parameter `experimental_hints`
    fails with `TypeError`. Not rewritten: the body's uses of the parameter must follow, and a
    method of that name may belong to a class unrelated to TensorFlow.

    Reported: `def reduce_implementation(self, reduce_op, value, destinations, experimental_hints): ...`
    Write instead: `def reduce_implementation(self, reduce_op, value, destinations, options): ...`

    Versions: TensorFlow passes `options` instead of `experimental_hints` from TF 2.4
    (tensorflow/python/distribute/cross_device_ops.py and distribute_lib.py of the tensorflow-cpu 2.3.0 and
    2.4.0 wheels).
    """

    code = "TF24109"
    name = "hints-parameter-override"
    new_since = "2.4"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    triggers = ("experimental_hints",)

    def leave_FunctionDef(self, ctx, original: cst.FunctionDef, updated: cst.FunctionDef):
        if original.name.value not in _REDUCTION_METHODS:
            return updated
        params = [*original.params.posonly_params, *original.params.params, *original.params.kwonly_params]
        for param in params:
            if param.name.value == "experimental_hints":
                ctx.report(
                    param,
                    f"`{original.name.value}` is called with `options=` from TF 2.4: rename the parameter "
                    "`experimental_hints` to `options`, and its uses in the body.",
                )
        return updated


RULES = (
    EXPERIMENTAL_RUN_V2,
    DISTRIBUTE_DATASETS_FROM_FUNCTION,
    EXPERIMENTAL_HINTS_KEYWORD,
    COLLECTIVE_HINTS,
    COLLECTIVE_COMMUNICATION,
    MultiWorkerMirroredStrategy(),
    HintsParameterOverride(),
    MakeNumpyDataset(),
    ParameterServerStrategy(),
)
