"""TF24106 `make-numpy-dataset`: `strategy.experimental_make_numpy_dataset(x)` was removed from TF 2.4's
`tf.distribute.Strategy`: use `tf.data.Dataset.from_tensor_slices(x)`."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import Rule
from tf24migrate.rules.calls import (
    bind_or_report,
    keep_arguments,
)
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import attribute

# a definition of the name in the file: a method of the user's own (a wrapper of a strategy)
_DEFINED = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+experimental_make_numpy_dataset\b", re.MULTILINE)


def _defined_here(source: str) -> int | None:
    """The line where the file defines a function or method named `experimental_make_numpy_dataset`."""
    found = _DEFINED.search(source)
    return None if found is None else source.count("\n", 0, found.start()) + 1


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
    `tf.compat.v1.distribute.Strategy` accepts, and still does. Reported, not rewritten: the calls
    in a file that defines a method of that name (a wrapper of a strategy, whose own method may
    batch or distribute the dataset), since such a call may be of that method.

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

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
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
        defined = _defined_here(ctx.source)
        if defined is not None:
            ctx.report(
                original,
                f"{message}; not rewritten: line {defined} of this file defines a method of that name, "
                "which this call may reach.\nIf the call is a TensorFlow strategy's, write "
                "`tf.data.Dataset.from_tensor_slices(...)`; if it is of your own method, rename that method.",
            )
            return updated
        from_tensor_slices = ctx.spell("tensorflow.data.Dataset.from_tensor_slices")
        if from_tensor_slices is None:
            ctx.report(original, f"{message}; this file has no way to name TensorFlow.")
            return updated
        value = updated.args[original.args.index(bound["numpy_input"])]
        kept = keep_arguments(updated, [value])
        arg = kept.args[0].with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        replacement = kept.with_changes(func=from_tensor_slices, args=[arg])
        return ctx.report(original, f"{message}.", replacement=replacement) or updated


RULES = (MakeNumpyDataset(),)
