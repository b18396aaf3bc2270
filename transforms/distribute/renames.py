"""The family's rename-like rules, as rows: TF24101 `experimental-run-v2`, TF24102 `distribute-datasets-
from-function`, TF24103 `experimental-hints-keyword`, TF24104 `collective-hints`, TF24105 `collective-
communication`."""

from __future__ import annotations

from tf24migrate.model.findings import Severity
from tf24migrate.rules.kinds import RenameKeyword, RenameMethod, RenameSymbol

from ._api import EXPERIMENTAL

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
    attribute `strategy.experimental_run_v2` passed around as a function. In a file that defines an
    `experimental_run_v2` of its own (a wrapper class's method, one patched onto a strategy), which a
    call may reach instead, the calls are reported, not rewritten.

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
    severity=Severity.INFO,
    message="`experimental_distribute_datasets_from_function` is deprecated since TF 2.4: "
    "call `distribute_datasets_from_function` (same arguments).",
    doc="""
    `Strategy.experimental_distribute_datasets_from_function` became `distribute_datasets_from_function`.

    The old name is a deprecated alias from TF 2.4 on. Matched by method name on any receiver; in a
    file that defines a method of that name of its own (a wrapper), reported, not rewritten.

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
    severity=Severity.INFO,
    doc="""
    `tf.distribute.experimental.CollectiveHints` was renamed `CommunicationOptions` in TF 2.4.

    The arguments are the same (`bytes_per_pack`, first positionally in both); the old name is a
    deprecated alias. Imported names are renamed in the import statement and at every use, or keep
    their name (`import CommunicationOptions as CollectiveHints`) where the file's own names would
    meet the new one (a class of that name, a second import of the old one, a star import).

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


RULES = (
    EXPERIMENTAL_RUN_V2,
    DISTRIBUTE_DATASETS_FROM_FUNCTION,
    EXPERIMENTAL_HINTS_KEYWORD,
    COLLECTIVE_HINTS,
    COLLECTIVE_COMMUNICATION,
)
