"""Classes deriving from the experimental `LossScaleOptimizer` (for TF24305).

`class Sub(tf.keras.mixed_precision.experimental.LossScaleOptimizer)` built as `Sub(opt, "dynamic")`
works on TF 2.3; with the stable base alone, the same construction is a TypeError, and other files
may construct `Sub` too. So the base is left as it is and reported, with the constructions of the
file named, to be changed together by hand. (An import of the experimental module that the base
goes through stays with it: see `tf24migrate.engine.linked`.)
"""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.rules.context import RuleContext


def class_of_base(ctx: RuleContext) -> cst.ClassDef | None:
    """The class whose base is the node being left, if it is one (`class Sub(<node>):`)."""
    ancestors = ctx.ancestors
    if (
        len(ancestors) >= 2
        and isinstance(ancestors[0], cst.Arg)
        and isinstance(ancestors[1], cst.ClassDef)
        and any(arg is ancestors[0] for arg in ancestors[1].bases)
    ):
        return ancestors[1]
    return None


def subclass_report(cls: cst.ClassDef, source: str, message: str, mapping: str) -> str:
    """The finding at the experimental base of `cls`: why it stays, and what to change with it."""
    name = cls.name.value
    lines = list(
        dict.fromkeys(
            str(source.count("\n", 0, match.start()) + 1)
            for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\s*\(", source)
            if not source[: match.start()].rstrip().endswith("class")
        )
    )
    shown = ""
    if lines:
        listed = f"line {lines[0]}" if len(lines) == 1 else f"lines {', '.join(lines[:-1])} and {lines[-1]}"
        shown = f" (this file constructs it on {listed})"
    return (
        f"{message} `{name}` derives from it: change the base with every construction of `{name}`.\n"
        f"The base is not changed alone: `{name}(optimizer, "
        f"loss_scale)` would then raise TypeError{shown}. Change the base together with every "
        f"construction of `{name}`, here and in other files ({mapping}), and any `__init__` that passes "
        "`loss_scale` on."
    )
