"""TF24602 `amp-env-lists`: The environment variables of the mixed-precision graph rewrite use
allow/deny/infer lists from TF 2.4."""

from __future__ import annotations

import re

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import RuleContext

from .._text import is_prose

_PREFIX = "TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_"


_RENAMED_LISTS = {"WHITELIST": "ALLOWLIST", "BLACKLIST": "DENYLIST", "GRAYLIST": "INFERLIST"}


_OLD_NAME = re.compile(_PREFIX + "(" + "|".join(_RENAMED_LISTS) + ")")


class AmpEnvironmentLists(Rule):
    """The environment variables of the mixed-precision graph rewrite use allow/deny/infer lists
    from TF 2.4.

    `TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_WHITELIST_ADD` and its siblings are
    `..._ALLOWLIST_*` (WHITELIST), `..._DENYLIST_*` (BLACKLIST) and `..._INFERLIST_*` (GRAYLIST) in
    TF 2.4; `..._CLEARLIST_*` is unchanged. The rewrite renames the variable in string literals;
    it is unsafe because whether TF 2.4 and later still read the old names is not verified, and a
    script that must also run on TF < 2.4 needs both names. Docstrings, comments and printed or
    logged text are never rewritten.

    Before: `os.environ["TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_WHITELIST_ADD"] = "MatMul"`
    After:  `os.environ["TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_ALLOWLIST_ADD"] = "MatMul"`

    Versions: the new list names are read from TF 2.4 (the strings of
    tensorflow/python/_pywrap_tensorflow_internal.so in the tensorflow-cpu 2.3.0 and 2.4.0 wheels); the old
    names are still accepted in 2.15.1 (the list-name check in the strings of tensorflow/libtensorflow_cc.so.2
    of that wheel). No program shows it: the graph rewrite those variables configure runs on a GPU only.
    """

    code = "TF24602"
    name = "amp-env-lists"
    new_since = "2.4"
    fix = Fix.UNSAFE
    severity = Severity.INFO
    triggers = (_PREFIX,)

    def leave_SimpleString(
        self, ctx: RuleContext, original: cst.SimpleString, updated: cst.SimpleString
    ) -> cst.BaseExpression:
        if not _OLD_NAME.search(original.value) or is_prose(ctx.ancestors, original):
            return updated
        value = _OLD_NAME.sub(lambda m: _PREFIX + _RENAMED_LISTS[m.group(1)], updated.value)
        renames = ", ".join(f"{old} → {new}" for old, new in _RENAMED_LISTS.items() if old in original.value)
        return (
            ctx.report(
                original,
                f"The mixed-precision graph rewrite lists were renamed in TF 2.4 ({renames}): set the new "
                "variable name (and keep the old one too if this also runs on TF < 2.4).",
                replacement=updated.with_changes(value=value),
            )
            or updated
        )


RULES = (AmpEnvironmentLists(),)
