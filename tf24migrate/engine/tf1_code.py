"""TensorFlow 1 files: found before any rule runs, and left alone with one note (`notes.TF1_FILE`);
and TF 2 files that still support TF 1 (`with_tf1_support`), whose target is TF 1.15, or, where
no target is named, a TF 2 release before 2.4 (`with_older_support`).

A TF 2.4 rewrite in TF 1 code breaks it (`nodes_blacklist=` -> `nodes_denylist=` is a TypeError on
TF 1.15), and such a file needs `tf_upgrade_v2` first anyway. A file is TF 1 code when it imports
`tensorflow.contrib`, or uses `TF1_ONLY_NAMES` through an import of `tensorflow` (or
`tensorflow.compat.v2`) at `TF1_SITES` places or more, outside a compatibility shim. One such use
alone is a straggler in TF 2 code (a `tf.logging.info` on an error path of the Model Garden's TF 2
training loop), not evidence enough to leave the whole file unmigrated. Names reached through
`tf.compat.v1` are TF 2 API and do not count. A text prefilter keeps this cheap: Python's `ast` reads only a file that
mentions one of the names, and the walk enters only the statements whose lines hold one of them
where it can be an attribute (after a `.`, or first on a line) or `import`: no other statement can
hold a use or bind a name to `tensorflow` (`flags.DEFINE_string`, `from absl import logging` and
`layers = []` hold none).
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass

from tf24migrate.engine.public_api import imports_public_tensorflow
from tf24migrate.engine.shims import SHIM_EXCEPTIONS, VERSION_CONSTANT, VERSION_WORDS, version_names
from tf24migrate.model.findings import Finding
from tf24migrate.model.notes import TF1_FILE, note_finding
from tf24migrate.model.target import TF1_TARGET, Target, format_version
from tf24migrate.rules.names import last_name, normalize
from tf24migrate.rules.needles import Pattern, attribute, word
from tf24migrate.rules.text import first_line, in_code, line_starts, python_chunks

# Top-level names of TF 1's `tf` that TF 2 does not have: each is absent from the `tf` namespace of
# TF 2.0 to 2.15 (checked against TF 2.15.1's `tensorflow/__init__.py`) and present in
# `tf.compat.v1`. `contrib` was never in TF 2 at all.
TF1_ONLY_NAMES = frozenset(
    {
        "contrib",
        "Session",
        "InteractiveSession",
        "ConfigProto",
        "GPUOptions",
        "RunOptions",
        "RunMetadata",
        "placeholder",
        "placeholder_with_default",
        "sparse_placeholder",
        "get_variable",
        "get_local_variable",
        "variable_scope",
        "AUTO_REUSE",
        "global_variables_initializer",
        "local_variables_initializer",
        "tables_initializer",
        "variables_initializer",
        "global_variables",
        "trainable_variables",
        "get_collection",
        "add_to_collection",
        "GraphKeys",
        "get_default_graph",
        "reset_default_graph",
        "enable_eager_execution",
        "layers",
        "logging",
        "app",
        "flags",
        "gfile",
        "random_normal",
        "random_uniform",
        "truncated_normal",
        "to_float",
        "to_int32",
        "Print",
    }
)
# How many uses of TF 1-only names make a file TF 1 code (an import of `tensorflow.contrib` alone does).
TF1_SITES = 2
_PREFILTER = word(*sorted(TF1_ONLY_NAMES))
_USE = attribute(*sorted(TF1_ONLY_NAMES))  # where a use can be: `tf.Session`, `tf.\` then `Session`
_IMPORT = re.compile("import")
_TENSORFLOW = "tensorflow"


@dataclass(frozen=True)
class TF1Evidence:
    line: int
    column: int  # 1-based
    what: str  # the code that shows it, as written (`tf.Session`, `import tensorflow.contrib.slim`)


def tf1_evidence(source: str) -> TF1Evidence | None:
    """The first sign in `source` that it is TensorFlow 1 code, or None. Every sign comes with an
    import of the public API (`tensorflow.contrib`, `import tensorflow as tf`): a file with none
    (TensorFlow's own sources) is not parsed."""
    if _TENSORFLOW not in source or not _PREFILTER.search(source) or not imports_public_tensorflow(source):
        return None
    starts = line_starts(source)
    found = [*_USE.finditer(source), *_IMPORT.finditer(source)]
    lines = sorted({bisect.bisect_right(starts, match.start()) for match in found})
    finder = _Finder(lines, version_names(source) if lines else frozenset())
    try:
        for tree in python_chunks(source):
            finder.visit(tree)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return finder.first()


def _is_contrib(module: str) -> bool:
    return normalize(module) == "tensorflow.contrib" or normalize(module).startswith("tensorflow.contrib.")


class _Finder:
    def __init__(self, lines: list[int], versions: frozenset[str] = frozenset()) -> None:
        self.lines = lines  # the lines holding a use of a TF 1-only name or `import`, in order
        self.versions = versions  # the names the file binds to TensorFlow's version (`version_names`)
        self.tensorflow_names: set[str] = set()  # local names bound to the `tensorflow` module
        self.found: list[TF1Evidence] = []
        self.contrib = False

    def visit(self, tree: ast.Module) -> None:
        """Read the statements of `tree`, the next of the module's (`python_chunks`)."""
        self._visit(tree.body)

    def first(self, *trees: ast.Module) -> TF1Evidence | None:
        """The first evidence in the statements read (`visit`, then `trees`), if they are TF 1 code."""
        for tree in trees:
            self.visit(tree)
        if not self.contrib and len(self.found) < TF1_SITES:
            return None
        return min(self.found, key=lambda e: (e.line, e.column))

    def _note(self, node: ast.expr | ast.stmt, what: str, *, contrib: bool = False) -> None:
        self.found.append(TF1Evidence(node.lineno, node.col_offset + 1, what))
        self.contrib |= contrib

    def _visit(self, nodes) -> None:
        for node in nodes:
            if (isinstance(node, ast.stmt) and not self._holds_a_line(node)) or _is_shim(node, self.versions):
                continue
            if isinstance(node, ast.Import):
                self._import(node)
            elif isinstance(node, ast.ImportFrom):
                self._import_from(node)
            elif isinstance(node, ast.Attribute):
                self._attribute(node)
            self._visit(ast.iter_child_nodes(node))

    def _holds_a_line(self, node: ast.stmt) -> bool:
        index = bisect.bisect_left(self.lines, first_line(node))
        return index < len(self.lines) and self.lines[index] <= (node.end_lineno or node.lineno)

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if _is_contrib(alias.name):
                self._note(node, f"import {alias.name}", contrib=True)
            elif alias.asname is not None and normalize(alias.name) == _TENSORFLOW:
                self.tensorflow_names.add(alias.asname)
            elif alias.asname is None and alias.name.split(".")[0] == _TENSORFLOW:
                self.tensorflow_names.add(_TENSORFLOW)

    def _import_from(self, node: ast.ImportFrom) -> None:
        if node.level or node.module is None:
            return
        module = normalize(node.module)
        if _is_contrib(module):
            self._note(node, f"from {node.module} import ...", contrib=True)
            return
        for alias in node.names:
            if module == _TENSORFLOW and alias.name in TF1_ONLY_NAMES:
                self._note(node, f"from {node.module} import {alias.name}")
            elif f"{module}.{alias.name}" == "tensorflow.compat.v2":
                self.tensorflow_names.add(alias.asname or alias.name)

    def _attribute(self, node: ast.Attribute) -> None:
        base = node.value
        if (
            isinstance(base, ast.Name)
            and base.id in self.tensorflow_names
            and node.attr in TF1_ONLY_NAMES
            and not isinstance(node.ctx, ast.Store)
        ):
            self._note(node, f"{base.id}.{node.attr}")


def _is_shim(node: ast.AST, versions: frozenset[str] = frozenset()) -> bool:
    """A `try` catching ImportError/AttributeError, or an `if` testing hasattr or a version (a name
    saying so, or one of `versions`, the names the file binds to TensorFlow's version: `IS_TF1 =
    tf.__version__.startswith("1.")`): code that runs on TF 1 and TF 2 alike (as `shims.is_shim`
    decides for rules)."""
    if isinstance(node, ast.Try):
        for handler in node.handlers:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            for kind in types:
                name = kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", None)
                if name in SHIM_EXCEPTIONS:
                    return True
        return False
    if isinstance(node, (ast.If, ast.IfExp)):
        for part in ast.walk(node.test):
            if isinstance(part, ast.Call) and getattr(part.func, "id", None) in ("hasattr", "getattr"):
                return True
            name = last_name(part)
            if name is not None and (
                name in VERSION_WORDS or name in versions or VERSION_CONSTANT.match(name)
            ):
                return True
    return False


def tf1_note(evidence: TF1Evidence, path: str | None) -> Finding:
    """The one finding of a TF 1 file, at what shows it."""
    return note_finding(
        TF1_FILE,
        f"TensorFlow 1 code (`{evidence.what}`): not migrated; migrate it to TF 2 first.\n"
        "TF 2.4 rewrites would break it on TF 1. Migrate it to TF 2 first (`tf_upgrade_v2 --infile FILE --outfile FILE`, then the TF 2 "
        "idioms), then run tf24migrate on it again.",
        path=path,
        line=evidence.line,
        column=evidence.column,
        end_column=evidence.column + len(evidence.what),
    )


# TF 2 code that still supports TF 1.15 asks which TensorFlow runs (`is_tf2()`, `tf2.enabled()`, the
# TensorFlow's version compared with a 1.x or 2.0 string), or imports `tensorflow.contrib` where an ImportError
# is caught (`_contrib_under_import_error`). Each pattern is looked for on the lines holding its
# literals only (`Pattern`: a whole-text search of `\b...` costs a hundred `str.find`).
_ASKS_VERSION = (
    (
        Pattern(r"\bis_tf2\(\)|\btf2\.enabled\(\)", "is_tf2()", "tf2.enabled()"),
        "it asks whether TF 2 runs (`is_tf2()`, `tf2.enabled()`)",
    ),
    (
        # TensorFlow's own version only: `numpy.__version__ < "1.20"` says nothing of TF 1.
        Pattern(
            r"\b(?:tf|tensorflow)\.(?:__version__|version\.VERSION)\b[^\n]*?['\"](?:1|1\.\d*|2|2\.0)['\"]",
            "__version__",
            "version.VERSION",
        ),
        "it compares TensorFlow's `__version__` with a TF 1 or TF 2.0 version",
    ),
)
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return caught is None or any(isinstance(n, ast.Name) and n.id in _IMPORT_ERRORS for n in names)


def _imports_contrib(node: ast.AST) -> bool:
    # `from tensorflow.contrib import x`, `from tensorflow import contrib`, `import tensorflow.contrib`
    if isinstance(node, ast.ImportFrom):
        module = normalize(node.module or "")
        return not node.level and (
            _is_contrib(module) or (module == _TENSORFLOW and any(a.name == "contrib" for a in node.names))
        )
    return isinstance(node, ast.Import) and any(_is_contrib(alias.name) for alias in node.names)


def _contrib_under_import_error(source: str) -> bool:
    """Whether `source` imports `tensorflow.contrib` in a `try` whose handler catches ImportError."""
    if "Error" not in source or next(in_code(source, "contrib"), None) is None:
        return False
    try:
        return any(
            isinstance(node, ast.Try)
            and any(map(_catches_import_error, node.handlers))
            and any(_imports_contrib(inner) for statement in node.body for inner in ast.walk(statement))
            for tree in python_chunks(source)  # the plan's own parse, when kept (`rules.text`)
            for node in ast.walk(tree)
        )
    except (SyntaxError, ValueError, RecursionError):
        return False


# TensorFlow's own version compared with a TF 2 release from 2.1 to 2.4: ordered (`tf.__version__ <
# "2.4"`, `< (2, 4)`: the file has code for the releases below), or matched
# (`tf.__version__.startswith("2.3")`). The version is read through TensorFlow by any name the file
# imports it as (`import tensorflow as tf2`), or through a name bound to it (`TF_VERSION =
# tf.__version__`, `from tensorflow import __version__ as tf_version`).
_TF_ALIAS = re.compile(r"^[ \t]*import[ \t]+tensorflow(?:\.compat\.v[12])?[ \t]+as[ \t]+(\w+)", re.MULTILINE)
_VERSION_IMPORTED = re.compile(
    r"\bfrom[ \t]+tensorflow(?:\.version)?[ \t]+import[ \t]+(?:__version__|VERSION)[ \t]+as[ \t]+(\w+)"
)
_RELEASE = (
    r"(?:['\"]2\.([1-4])(?!\d)|\([ \t]*2[ \t]*,[ \t]*([1-4])[ \t]*[,)]"
    # the minor number alone: `int(tf.__version__.split(".")[1]) < 4`
    r"|split\([ \t]*['\"]\.['\"][ \t]*\)\[1\][ \t]*\)?[ \t]*((?:[<>!=]=|[<>])[ \t]*)([1-4])(?!\d))"
)
# Before the version, a negation (`not tf.__version__.startswith("2.4")`): code for other releases.
_NEGATED = re.compile(r"\bnot[ \t]+\(?[ \t]*$")
# A comparison that only raises (`if tf.__version__ < "2.4": raise ...`), or asserts, claims no support.
_RAISES = re.compile(r"[^\n]*(?:\braise\b|\n[ \t]*raise\b)")
_ASSERTS = re.compile(r"[ \t]*assert\b")


def _older_release(source: str) -> tuple[Pattern, list[str]]:
    """The pattern of a comparison of TensorFlow's version with a release (the text before the
    release its group 1, the release's minor number its group 2, 3 or 5, the comparison before a
    minor number alone its group 4), and the names the file binds to the version."""
    modules = "|".join(sorted({"tf", "tensorflow", *_TF_ALIAS.findall(source)}))
    through = rf"\b(?:{modules})\.(?:__version__|version\.VERSION)\b"
    # `TF_VERSION = tf.__version__`, and each name of an unpacking (`major, minor = ...`)
    bound = re.findall(
        rf"^[ \t]*(\w+(?:[ \t]*,[ \t]*\w+)*)[ \t]*=[^=\n][^\n]*?{through}", source, re.MULTILINE
    )
    names = sorted(
        {*_VERSION_IMPORTED.findall(source), *(name.strip() for names in bound for name in names.split(","))}
    )
    spelled = rf"(?:{through}|\b(?:{'|'.join(names)})\b)" if names else through
    return Pattern(rf"{spelled}([^\n]*?){_RELEASE}", "__version__", "version.VERSION", *names), names


def _other_releases(source: str, match: re.Match[str]) -> bool:
    """Whether the comparison `match` (of `_older_release`'s pattern) keeps code for the releases
    before the one it names: it orders (`<`, `>=`), or it tells that release from the others
    (`!=`, `not ....startswith("2.4")`)."""
    compared = match.group(1) + (match.group(4) or "")
    line = source[source.rfind("\n", 0, match.start()) + 1 : match.start()]
    return bool(re.search("[<>]|!=", compared) or _NEGATED.search(line))


def with_older_support(source: str, target: Target) -> Target:
    """`target` lowered below TF 2.4 where nothing names one (the default) and `source` compares
    TensorFlow's version with a TF 2 release up to 2.4: the file keeps code for the releases below
    it (`if tf.__version__ < "2.4": ... else: ...`), which a fix whose new spelling they lack would
    break in the code outside that `if`. The target is the lowest release the file has code for
    (2.3 for `< "2.4"`, `< (2, 4)`, `int(....split(".")[1]) < 4` or `not ....startswith("2.4")`,
    2.1 for `.startswith("2.1")`), however the file spells the
    version (`_older_release`); a comparison that only raises or asserts (`TF 2.4 is required`)
    claims no support."""
    if not target.source.startswith("default") or ("__version__" not in source and "VERSION" not in source):
        return target
    pattern, names = _older_release(source)
    matches = [
        match
        for match in pattern.finditer(source)
        if not _RAISES.match(source, match.end())
        and not _ASSERTS.match(source, source.rfind("\n", 0, match.start()) + 1)
    ]
    if not matches:
        return target
    code = {at for word in ("__version__", "VERSION", *names) for at in in_code(source, word)}  # not in prose
    supported = [
        (
            2,
            int(match.group(2) or match.group(3) or match.group(5))
            - (1 if _other_releases(source, match) else 0),
        )
        for match in matches
        if code.intersection(range(match.start(), match.start(1)))
    ]
    lowest = min(supported, default=None)
    if lowest is None or lowest >= target.version:
        return target
    why = f"this file supports TF {format_version(lowest)}: it checks TensorFlow's version for it"
    return Target(lowest, why, target.newest)


def with_tf1_support(source: str, target: Target) -> Target:
    """`target`, lowered to TF 1.15 when `source` still supports TF 1: there a fix whose new
    spelling TF 1.15 lacks is reported, not applied."""
    if target.version <= TF1_TARGET or "tensorflow" not in source:
        return target
    why = next((why for pattern, why in _ASKS_VERSION if pattern.search(source)), None)
    if why is None and _contrib_under_import_error(source):
        why = "it imports `tensorflow.contrib` where an ImportError is caught"
    return target if why is None else Target(TF1_TARGET, f"this file supports TF 1: {why}", target.newest)
