"""TF24507 `hidden-module-import-as`: `import tensorflow.python.x as y` fails on Python 3.6 from
TF 2.4."""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.rules.base import Rule
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import dotted_name_of_module
from tf24migrate.rules.needles import Pattern

from .hidden_internal_modules import HIDDEN_MODULES
from .removed_api import removed

_HIDDEN = tuple(f"{module}." for module in HIDDEN_MODULES)


class HiddenModuleImportAs(Rule):
    """`import tensorflow.python.x as y` fails on Python 3.6 from TF 2.4: write `from
    tensorflow.python import x as y`.

    Python 3.6 binds `import a.b.c as d` by reading the attributes `a.b` and then `.c`, and TF 2.4
    no longer has `tensorflow.python` (nor `core`, `compiler`) as an attribute: `AttributeError:
    module 'tensorflow' has no attribute 'python'` (executed with TF 2.4.0 on Python 3.6.15). Python
    3.7 and later fall back to the imported module, so there it still works (executed on 3.8), as
    does the `from` form everywhere. TF 2.4 supports Python 3.6 to 3.8. The fix writes the `from`
    form, which binds the same module on every Python; an import statement of several modules is
    reported, not rewritten. A module TF 2.4 no longer has is left to TF24508 `removed-api`.
    Showing the break needs Python 3.6 (the integration tests run Python
    3.8, where the program executes the spellings only).

    Before: `import tensorflow.python.keras.backend as K`
    After:  `from tensorflow.python.keras import backend as K`

    Versions: the `from` form imports the internal module on every TF 2 release (TF 2.0 put
    `tensorflow.python` in the package, and it is there in the tensorflow-cpu 2.3.0 and 2.4.0 wheels;
    executed on both); the internal modules are no longer attributes of `tf` from TF 2.4 (TF 2.4's release
    notes), so the old spelling stops working in TF 2.4 on Python 3.6 (executed on 3.6.15).
    """

    code = "TF24507"
    name = "hidden-module-import-as"
    new_since = "2.0"
    old_removed = "2.4"  # on Python 3.6, which TF 2.4 supports
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = (
        Pattern(
            r"\bimport[ \t]+tensorflow\.(?:python|core|compiler)\.[\w.]+[ \t]+as\b",
            "import tensorflow.python.",
            "import tensorflow.core.",
            "import tensorflow.compiler.",
        ),
    )

    def leave_Import(
        self, ctx: RuleContext, original: cst.Import, updated: cst.Import
    ) -> cst.BaseSmallStatement:
        for alias in original.names:
            module = dotted_name_of_module(alias.name) or ""
            if alias.asname is None or not module.startswith(_HIDDEN) or removed(module):
                continue  # a module TF 2.4 lacks is TF24508's: the `from` form would fail as well
            asname = alias.asname.name
            if not isinstance(asname, cst.Name):
                continue
            parent, _, last = module.rpartition(".")
            package = cst.parse_expression(parent)
            assert isinstance(package, (cst.Attribute, cst.Name))  # `module` is a dotted name
            message = (
                f"`import {module} as {asname.value}` fails on Python 3.6 from TF 2.4: write "
                f"`from {parent} import {last} as {asname.value}`\n"
                f"It raises AttributeError there: `tensorflow.{module.split('.')[1]}` is no longer an attribute "
                "of the package. The `from` form works on every Python."
            )
            if len(original.names) != 1:
                ctx.report(alias, f"{message} Split this import statement to do so.")
                continue
            replacement = cst.ImportFrom(
                module=package,
                names=[
                    cst.ImportAlias(
                        cst.Name(last),
                        asname=None if asname.value == last else updated.names[0].asname,
                    )
                ],
                semicolon=updated.semicolon,
            )
            return ctx.report(alias, message, replacement=replacement) or updated
        return updated


RULES = (HiddenModuleImportAs(),)
