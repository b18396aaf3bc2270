"""TF24501 `hidden-internal-modules`: `tf.python`, `tf.core` and `tf.compiler` are no longer attributes of `tensorflow` from TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.needles import ModuleAttribute

# The internal packages TF 2.4 no longer makes attributes of `tensorflow`, each with that attribute.
HIDDEN_MODULES = {"tensorflow.python": "python", "tensorflow.core": "core", "tensorflow.compiler": "compiler"}


class HiddenInternalModules(Rule):
    """`tf.python`, `tf.core` and `tf.compiler` are no longer attributes of `tensorflow` from TF 2.4.

    TF 2.4 deletes them from the package namespace, so `tf.python.keras.backend` raises
    `AttributeError`. Importing the module explicitly still works (`from tensorflow.python.keras
    import backend`), but these are internal paths that move between releases: prefer the public
    `tf.*` API. Only attribute access in code is reported; imports, strings, comments and
    docstrings never are. Not rewritten: which public API replaces an internal one is a judgement.

    Reported: `tf.python.keras.backend.clear_session()`
    Write instead: `tf.keras.backend.clear_session()` (or `from tensorflow.python.keras import backend`)

    Versions: the internal modules are no longer attributes of `tf` from TF 2.4 (TF 2.4's release notes).
    """

    code = "TF24501"
    name = "hidden-internal-modules"
    old_removed = "2.4"
    fix = None
    severity = Severity.ERROR
    # `tf.python` (`.core`, `.compiler`) outside an import, `tf` a name an import binds to
    # `tensorflow`: not `tfds.core`, `from tensorflow.python...` lines nor dotted paths (`tf2xla.python`)
    triggers = (ModuleAttribute("tensorflow", *HIDDEN_MODULES.values()),)
    requires = IMPORTS_TENSORFLOW

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        part = HIDDEN_MODULES.get(ctx.qualified_name(original) or "")
        if part is None or ctx.qualified_name(original.value) != "tensorflow":
            return updated
        spelled = code_for(original)
        ctx.report(
            original,
            f"`{spelled}` raises AttributeError from TF 2.4: use the public `tf.*` API or an import.\n"
            f"`tensorflow.{part}` is no longer an attribute of the package. Import the module explicitly: "
            f"`{spelled}.<module>.<name>` becomes `from tensorflow.{part}.<module> import <name>`.",
        )
        return updated


RULES = (HiddenInternalModules(),)
