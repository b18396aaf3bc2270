"""TF24510 `checkpoint-root`: `tf.train.Checkpoint(root=...)` makes its value the checkpoint's root
from TF 2.4, where TF 2.3 saved it as a child named `root`."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import abbreviated, code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import Pattern

_CHECKPOINT = "tensorflow.train.Checkpoint"
# a value TF 2.3 wrapped as a trackable child, and TF 2.4 refuses as the root
_LITERALS = (cst.Dict, cst.List, cst.Tuple, cst.DictComp, cst.ListComp)


def _is_weak_reference(value: cst.BaseExpression) -> bool:
    """Whether `value` is `weakref.ref(...)` or `weakref.proxy(...)`: TF 2.3.0 and 2.4.0 both refuse
    it (ValueError), so the code is written for a later release, whose `root=` takes one."""
    return isinstance(value, cst.Call) and code_for(value.func) in ("weakref.ref", "weakref.proxy")


class CheckpointRoot(Rule):
    """`tf.train.Checkpoint(root=...)` makes its value the checkpoint's root from TF 2.4.

    TF 2.3's `tf.train.Checkpoint(**kwargs)` saved every keyword's value as a child of that name:
    `tf.train.Checkpoint(root=model)` wrote the model's variables under `root/...`. TF 2.4 gave
    `Checkpoint` a `root` parameter: its value becomes the root object, so the same call writes
    them at the top, without `root/` (and `save_counter` beside them). A checkpoint TF 2.3 wrote
    then restores nothing into it, silently (`restore(...)` leaves the variables as they were;
    `assert_existing_objects_matched()` raises), and code reading `root/...` keys
    (`tf.train.load_checkpoint(path).get_tensor("root/...")`) fails. A dictionary or a list given as
    `root=`, which TF 2.3 wrapped as a child, raises `ValueError` ("`Checkpoint` was expecting a
    trackable object"). Assigning the child keeps TF 2.3's layout on both:
    `ckpt = tf.train.Checkpoint()` then `ckpt.root = model`. Not rewritten: that takes a second
    statement. `tf.compat.v1.train.Checkpoint` did not change. Not reported: `root=weakref.ref(...)`,
    which TF 2.3.0 and 2.4.0 both refuse (code for a later release, as Keras 2.15's own).

    Reported: `ckpt = tf.train.Checkpoint(root=model, optimizer=optimizer)`
    Write instead: `ckpt = tf.train.Checkpoint(optimizer=optimizer)` then `ckpt.root = model`

    Versions: `Checkpoint.__init__(self, root=None, **kwargs)` in tensorflow/python/training/tracking/util.py
    of the tensorflow-cpu 2.4.0 wheel (`__init__(self, **kwargs)` in 2.3.0); the keys written, the
    restore of a TF 2.3 checkpoint, a dictionary or a weak reference as `root=` and the assigned
    child executed on 2.3.0 and 2.4.0.
    """

    code = "TF24510"
    name = "checkpoint-root"
    changed_in = "2.4"
    old_removed = "2.4"  # `root=` no longer names a child
    fix = None
    severity = Severity.ERROR
    triggers = (Pattern(r"\broot[ \t]*=", "root"),)
    requires = (*IMPORTS_TENSORFLOW, "Checkpoint")

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) != _CHECKPOINT:
            return updated
        root = next((a for a in original.args if a.keyword is not None and a.keyword.value == "root"), None)
        if root is None or _is_weak_reference(root.value):
            return updated
        shown = abbreviated(root.value)
        if isinstance(root.value, _LITERALS):
            what = f"`root={shown}` raises ValueError from TF 2.4, which takes `root=` for a trackable root object"
        else:
            what = (
                f"`root={shown}` is the checkpoint's root object from TF 2.4: its variables are saved "
                "without TF 2.3's `root/` prefix, so a checkpoint TF 2.3 wrote restores nothing into it"
            )
        ctx.report(
            root,
            f"{what}; keep TF 2.3's layout on both: build the checkpoint without it, then assign "
            f"`ckpt.root = {shown}`.\n"
            "TF 2.3's `Checkpoint(**kwargs)` saved each keyword's value as a child of that name; TF 2.4's "
            "`Checkpoint(root=None, **kwargs)` makes `root` the object saved at the top.",
        )
        return updated


RULES = (CheckpointRoot(),)
