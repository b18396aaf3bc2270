"""tf24migrate's rules as LibCST codemods, to compose with other codemods.

`TF24Migrate` runs the selected rules (default: the default rules); one subclass per rule, named
by its code (`TF24101`, ...), runs that rule alone:

    python -m libcst.tool codemod -x tf24migrate.codemod.TF24Migrate --select TF241 src/
    python -m libcst.tool codemod -x tf24migrate.codemod.TF24101 src/

or, in Python, `libcst.codemod.transform_module(TF24101(CodemodContext()), source)`. Findings that
are not fixed are emitted as codemod warnings.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import ClassVar

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext

from tf24migrate.catalogue.selection import all_rules, select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine.pipeline import run_rules


class TF24Migrate(CodemodCommand):
    DESCRIPTION: str = "Migrate TensorFlow 2.0-2.3 code to the TensorFlow 2.4 API."
    SELECT: ClassVar[tuple[str, ...] | None] = None

    def __init__(
        self,
        context: CodemodContext,
        select: Sequence[str] | str | None = None,
        ignore: Sequence[str] | str | None = None,
        unsafe_fixes: bool = False,
    ) -> None:
        super().__init__(context)
        self.rules = select_rules(select if select is not None else self.SELECT, ignore)
        self.unsafe_fixes = unsafe_fixes

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--select", help="Rules to run: codes, names, prefixes or 'all', comma-separated."
        )
        arg_parser.add_argument("--ignore", help="Rules to leave out, as for --select.")
        arg_parser.add_argument("--unsafe-fixes", action="store_true", help="Also apply unsafe fixes.")

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        settings = Settings(self.rules, unsafe_fixes=self.unsafe_fixes)
        result = run_rules(tree.code, settings, path=self.context.filename)
        for finding in result.findings:
            if not finding.applied:
                self.warn(f"{finding.location}: {finding.code} {finding.message}")
        return cst.parse_module(result.code) if result.changed else tree


def _rule_command(code: str, summary: str) -> type[TF24Migrate]:
    return type(code, (TF24Migrate,), {"SELECT": (code,), "DESCRIPTION": summary, "__doc__": summary})


for _rule in all_rules():
    globals()[_rule.code] = _rule_command(_rule.code, _rule.summary)
del _rule
