"""Whether a source imports TensorFlow's public API (`import tensorflow as tf`), not only its
internals (`from tensorflow.python.ops import math_ops`): rules that match only public names
(`rules.needles.IMPORTS_PUBLIC_TENSORFLOW` in their `requires`) have nothing to match in a file that
does not, and `ReportUse` reports an internal symbol only in a file that does."""

from __future__ import annotations

import ast

from tf24migrate.rules.names import TENSORFLOW
from tf24migrate.rules.needles import IMPORTS_PUBLIC_TENSORFLOW, TENSORFLOW_INTERNALS
from tf24migrate.rules.text import in_code, of_the_last_text, python_chunks_with_offsets, statements


def _is_public_tensorflow(module: str) -> bool:
    top, _, rest = module.partition(".")
    return top == TENSORFLOW and rest.partition(".")[0] not in TENSORFLOW_INTERNALS


def _may_import_public_tensorflow(source: str) -> bool:
    """Whether some `tensorflow` of `source` outside its strings and comments is on a line where
    `IMPORTS_PUBLIC_TENSORFLOW` matches: False proves there is no such import (every import
    statement has its `tensorflow` in code, on a line the pattern matches), in a hundredth of the
    time of Python's `ast` (most TF sources name `import tensorflow as tf` only in docstrings)."""
    for at in in_code(source, TENSORFLOW):
        start = max(source.rfind("\n", 0, at), source.rfind("\r", 0, at)) + 1
        ends = [i for i in (source.find("\n", at), source.find("\r", at)) if i >= 0]
        if IMPORTS_PUBLIC_TENSORFLOW.regex.search(source, start, min(ends, default=len(source))):
            return True
    return False


@of_the_last_text
def imports_public_tensorflow(source: str) -> bool:
    """Whether `source` imports TensorFlow's public API (`import tensorflow`, `from tensorflow
    import ...`, `tensorflow.keras`, ...), not only its internals (`rules.needles.TENSORFLOW_INTERNALS`:
    `from tensorflow.python.ops import math_ops`): a file importing only internals is TensorFlow's
    own implementation, and binds no name a rule knows by its public name. `import
    tensorflow.python.ops` counts (it binds `tensorflow`). Imports are read with Python's `ast`, so
    an example in a docstring does not count. The answer for the last source is kept (the TF 1
    check and the pipeline both ask)."""
    if not _may_import_public_tensorflow(source):
        return False
    try:
        for _, tree in python_chunks_with_offsets(source):  # a chunk at a time (`rules.text`)
            for node in statements(tree.body):
                if isinstance(node, ast.Import) and any(
                    _is_public_tensorflow(alias.name)
                    or (alias.asname is None and alias.name.startswith("tensorflow."))
                    for alias in node.names
                ):
                    return True
                if (
                    isinstance(node, ast.ImportFrom)
                    and not node.level
                    and _is_public_tensorflow(node.module or "")
                ):
                    return True
    except (SyntaxError, ValueError, RecursionError):
        return True  # unknown: as before this check
    return False
