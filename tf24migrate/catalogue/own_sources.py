"""Whether a file is TensorFlow's own source, told by where it lives, not by what it imports.

Rules that match TensorFlow's internal modules (`tensorflow.python...`, `Rule.reads_internals`)
stay quiet in TensorFlow's own sources, which move with the release (the prefilter leaves them out
there, before reading more than the path), and check every other file, also one that imports only
internals (`from tensorflow.python.keras.utils import tf_utils` in a
user's script fails on TF 2.4 as much as in one that also imports `tensorflow`).

A file is TensorFlow's own when its package (the folders above it that hold an `__init__.py`) is
inside a package named `tensorflow` (or `tensorflow_core`, the wheels' name in TF 2.0 and 2.1), or
when the top of that package is TensorFlow's `python` package unpacked without its parent: a
package named `python` that holds `framework/ops.py`. Without a path (a text given to the
library, a document without a file) nothing shows that a text is TensorFlow's own: it is checked,
as a user's text is.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

TENSORFLOW_PACKAGES = frozenset({"tensorflow", "tensorflow_core"})


def is_tensorflow_source(path: str | None) -> bool:
    """Whether the file at `path` is part of TensorFlow's own sources (see the module)."""
    if path is None:
        return False
    return _in_tensorflow_package(str(Path(path).absolute().parent))


@lru_cache(maxsize=4096)
def _in_tensorflow_package(folder: str) -> bool:
    """Whether `folder`, or a package folder holding it, is TensorFlow's own package."""
    here = Path(folder)
    if not (here / "__init__.py").is_file():
        return False
    if here.name in TENSORFLOW_PACKAGES:
        return True
    if here.parent == here:
        return False
    if not (here.parent / "__init__.py").is_file():  # the top of the package
        return here.name == "python" and (here / "framework" / "ops.py").is_file()
    return _in_tensorflow_package(str(here.parent))
