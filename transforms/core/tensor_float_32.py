"""TF24503 `tensor-float-32`: TF 2.4 runs float32 matmuls and convolutions in TensorFloat-32 on Ampere GPUs (opt-in rule)."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import import_bindings, is_import_line, is_tensorflow

_TF32 = "tensorflow.config.experimental.enable_tensor_float_32_execution"


def _is_main_guard(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.If) or not isinstance(statement.test, cst.Comparison):
        return False
    test = statement.test
    if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Equal):
        return False
    sides = {code_for(test.left).strip(), code_for(test.comparisons[0].comparator).strip()}
    return "__name__" in sides and ({"'__main__'", '"__main__"'} & sides) != set()


def _imports_tensorflow(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return any(
        is_tensorflow(qualified)
        for small in statement.body
        if isinstance(small, (cst.Import, cst.ImportFrom))
        for _, qualified, _ in import_bindings(small)
    )


class TensorFloat32(Rule):
    """TF 2.4 runs float32 matmuls and convolutions in TensorFloat-32 on Ampere GPUs (opt-in rule).

    TF32 rounds the inputs of those ops to a 10-bit mantissa; most models train the same, but code
    that needs full float32 precision must turn it off. For a program (a file with
    `if __name__ == "__main__":` that imports TensorFlow), the unsafe fix inserts the call after the
    top-level imports. Opt-in (`--select TF24503`), because keeping TF32 on is usually right; a
    file that already calls `enable_tensor_float_32_execution` is left alone.

    Before: `import tensorflow as tf` then `if __name__ == "__main__": main()`
    After:  `import tensorflow as tf` then `tf.config.experimental.enable_tensor_float_32_execution(False)` then `if __name__ == "__main__": main()`

    Versions: `tf.config.experimental.enable_tensor_float_32_execution` is exported since TF 2.4
    (tensorflow/_api/v2/config/experimental/__init__.py of the tensorflow-cpu 2.4.0 wheel; absent in 2.3.0);
    TensorFloat-32 is on by default from 2.4 (TF 2.4's release notes). Showing the change needs an
    NVIDIA Ampere GPU: on a CPU the integration test executes the spellings only.
    """

    code = "TF24503"
    name = "tensor-float-32"
    new_since = "2.4"
    changed_in = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.INFO
    default = False
    triggers = ("__main__",)
    requires = MENTIONS_TENSORFLOW  # any TensorFlow import counts (`_imports_tensorflow`)

    def leave_Module(self, ctx: RuleContext, original: cst.Module, updated: cst.Module) -> cst.Module:
        if "enable_tensor_float_32_execution" in ctx.source:
            return updated
        if not any(_is_main_guard(s) for s in original.body) or not any(
            _imports_tensorflow(s) for s in original.body
        ):
            return updated
        last_original = max(i for i, s in enumerate(original.body) if is_import_line(s))
        last_updated = max(i for i, s in enumerate(updated.body) if is_import_line(s))
        function = ctx.spell(_TF32)
        if function is None:
            return updated
        statement = cst.SimpleStatementLine([cst.Expr(cst.Call(function, [cst.Arg(cst.Name("False"))]))])
        applied = ctx.report(
            original.body[last_original],
            "TF 2.4 runs float32 matmuls on Ampere GPUs in TensorFloat-32 by default: turn it off for full "
            "float32 precision.\nConvolutions too; TensorFloat-32 has a 10-bit mantissa. If this program "
            "needs full float32 precision, turn it off after the imports.",
            replacement=statement,
            fix=Fix.UNSAFE,
        )
        if applied is None:
            return updated
        body = list(updated.body)
        return updated.with_changes(body=[*body[: last_updated + 1], statement, *body[last_updated + 1 :]])


RULES = (TensorFloat32(),)
