"""What the mixed-precision rules share: the module names, the experimental callee rule kind,
and small readers of literal arguments."""

from __future__ import annotations

import ast
import re

import libcst as cst

from tf24migrate.rules.calls import code_for
from tf24migrate.rules.context import RuleContext, sentence
from tf24migrate.rules.kinds import RenameSymbol
from tf24migrate.rules.names import dotted_name_of_module, normalize
from tf24migrate.rules.text import of_the_last_text, parsed_or_none

EXPERIMENTAL = "tensorflow.keras.mixed_precision.experimental"
STABLE = "tensorflow.keras.mixed_precision"
_LOSS_SCALE_MODULES = ("tensorflow.mixed_precision.experimental", "tensorflow.train.experimental")
_LOSS_SCALE_CLASSES = ("LossScale", "FixedLossScale", "DynamicLossScale")
_V1_MIXED_PRECISION = "tensorflow.compat.v1.mixed_precision"


def _is_callee(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` is the function of the call enclosing it (the call's rule handles it)."""
    ancestors = ctx.ancestors
    return bool(ancestors) and isinstance(ancestors[0], cst.Call) and ancestors[0].func is node


def _string(node: cst.BaseExpression) -> str | bytes | None:
    return node.evaluated_value if isinstance(node, cst.SimpleString) else None


def _number(node: cst.BaseExpression) -> float | None:
    """The value of a number written out (`32768`, `2 ** 15`, `128.0`), else None."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return float(node.evaluated_value)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Power, cst.Multiply)):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None:
            return None
        return left**right if isinstance(node.operator, cst.Power) else left * right
    return None


_TYPE_TESTS = frozenset({"isinstance", "issubclass"})
_TYPE_ASSERTIONS = frozenset({"assertIsInstance", "assertNotIsInstance"})  # unittest's


def _is_type_test(ctx: RuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` is the class that `isinstance`, `issubclass` or a test's `assertIsInstance`
    tests against (or one of a tuple of them): a place where it is never called."""
    ancestors = ctx.ancestors
    if len(ancestors) >= 2 and isinstance(ancestors[0], cst.Element) and isinstance(ancestors[1], cst.Tuple):
        ancestors = ancestors[2:]
    if len(ancestors) < 2 or not isinstance(ancestors[0], cst.Arg) or not isinstance(ancestors[1], cst.Call):
        return False
    call, func = ancestors[1], ancestors[1].func
    tests = (
        isinstance(func, cst.Name) and func.value in _TYPE_TESTS and ctx.binding(func.value) is None
    ) or (isinstance(func, cst.Attribute) and func.attr.value in _TYPE_ASSERTIONS)
    return tests and len(call.args) >= 2 and call.args[1] is ancestors[0]


def _importer_of_assigned(ctx: RuleContext, call: cst.Call) -> str | None:
    """Which other file imports the module-level name `call` is assigned to (`opt =
    LossScaleOptimizer(...)`, then `from utils import opt` there), or None. Such a name is
    `rebound` when the call's callee changes, so the run looks for its importers."""
    ancestors = ctx.ancestors
    assignment = ancestors[0] if ancestors else None
    if not isinstance(assignment, (cst.Assign, cst.AnnAssign)) or assignment.value is not call:
        return None
    if any(isinstance(node, (cst.FunctionDef, cst.ClassDef)) for node in ancestors):
        return None
    targets = (
        [t.target for t in assignment.targets] if isinstance(assignment, cst.Assign) else [assignment.target]
    )
    for target in targets:
        if isinstance(target, cst.Name) and (where := ctx.imported_elsewhere(target.value)) is not None:
            return f"`{target.value}` is imported by {where}"
    return None


class _ExperimentalCallee(RenameSymbol):
    """A renamed class that takes other arguments: its calls are rewritten by the rule's
    `leave_Call`, and imports of it are renamed as `RenameSymbol` does (each use of the imported
    name then migrated too, or the import stays). Any other reference is renamed only where the
    class is tested against (`isinstance(x, mp.LossScaleOptimizer)`); elsewhere (`LSO =
    mp.LossScaleOptimizer`, an argument, a base) it may be called out of sight with the old
    arguments, so it is reported: `takes` says how the new class's arguments differ."""

    takes = "other arguments"
    # what else a test against the stable class matches, where the file reads a loss scale
    widens = ""
    # how an object of the stable class differs from one of the experimental class on TF 2.4
    differs = "fails `isinstance` tests against the experimental one"

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if ctx.qualified_name(original) != self.old or _is_callee(ctx, original):
            return updated
        if _is_type_test(ctx, original):
            widened = self.widened_test(ctx)
            if widened is None:
                return super().leave_Attribute(ctx, original, updated)
            ctx.report(original, f"{self.message.rstrip('.')}: not renamed in this test, {widened}")
            self.keep_constructions(
                ctx, f"line {ctx.source_line(original)} tests against the experimental class"
            )
            return updated
        ctx.report(
            original,
            f"{self.message.rstrip('.')}, which takes {self.takes}: not renamed here, where its calls are "
            "out of sight.\nRename it by hand together with each call it reaches, passing the stable "
            f"arguments (see {self.code}'s documentation).",
        )
        self.keep_constructions(ctx, f"line {ctx.source_line(original)} keeps `{code_for(original)}`")
        return updated

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        """An import of the class that stays (a use of its name is not migrated) keeps the file's
        constructions too: an object of the stable class fails `isinstance` tests against it."""
        exported_aliases = block_exported_imports(ctx, original, self.old)
        module = dotted_name_of_module(original.module) if original.module and not original.relative else None
        parent, last = self.old.rsplit(".", 1)
        if (
            module is not None
            and normalize(module) == parent
            and not isinstance(original.names, cst.ImportStar)
        ):
            for alias in original.names:
                kept = ctx.blocked_reason(alias) is not None or alias in exported_aliases
                if dotted_name_of_module(alias.name) == last and kept:
                    self.keep_constructions(
                        ctx, f"line {ctx.source_line(alias)} keeps the import of `{last}`"
                    )
        return super().leave_ImportFrom(ctx, original, updated)

    def widened_test(self, ctx: RuleContext) -> str | None:
        """Why a test against the class must not name the stable one in this file (the rest of
        the finding's text), or None: the stable class is a base of the experimental one, so the
        test then matches more objects (`widens`), on which a loss scale the test guards is read
        otherwise or not at all."""
        line = loss_scale_read_line(ctx.source)
        if line is None:
            return None
        return (
            f"since this file reads a loss scale (line {line}).\n{self.widens}: code the test guards would "
            "read it wrongly. Read the loss scale as TF24307 and TF24309 say, then rename it."
        )

    def keep_constructions(self, ctx: RuleContext, why: str) -> None:
        """Keep the file's constructions of the class as they are: the experimental class stays
        named in the file (`why`), and the stable class is not derived from it, so an object
        built from the stable one would fail an `isinstance` test against it."""
        ctx.block(self, why)

    def constructions_kept(self, ctx: RuleContext, call: cst.Call) -> str | None:
        """Why the construction `call` is not rewritten, if it is not: the first line of a finding
        at it, and what to do. The file keeps the experimental class, or another file imports the
        module-level name `call` is assigned to (`from utils import opt`), whose uses of the
        object, as one of the experimental class, this file cannot see."""
        why = ctx.blocked_reason(self)
        if why is not None:
            return (
                f"not rewritten, since this file keeps the experimental class.\n{sentence(why)}, and an "
                f"object built from the stable class {self.differs}: migrate those references first."
            )
        importer = _importer_of_assigned(ctx, call)
        if importer is None:
            return None
        return (
            f"not rewritten, since {importer}.\nAn object built from the stable class {self.differs}, "
            "which that file's uses may rely on: migrate them first."
        )


# a read of a loss scale: an attribute, or by name (`getattr(policy, "loss_scale")`)
_READS_A_LOSS_SCALE = re.compile(r"""\.loss_scale\b|["']loss_scale["']""")


@of_the_last_text
def loss_scale_read_line(source: str) -> int | None:
    """The line of the file's first read of a loss scale, of whatever object, if any (asked at
    each construction: kept for the last text)."""
    read = _READS_A_LOSS_SCALE.search(source)
    return None if read is None else source.count("\n", 0, read.start()) + 1


_MODULE_MESSAGE = "`tf.keras.mixed_precision.experimental` is `tf.keras.mixed_precision` from TF 2.4."


def _literal_names(node: ast.expr) -> list[str] | None:
    """The strings of a list or tuple of string literals, else None."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    names = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return names if len(names) == len(node.elts) else None


@of_the_last_text
def _exports(source: str) -> tuple[int, frozenset[str] | None] | None:
    """`(line, names)` of the module's `__all__`: its first line and the names it lists (None
    where it is computed, so that any name may be in it); None without `__all__`."""
    if "__all__" not in source:
        return None
    tree = parsed_or_none(source)
    if tree is None:
        return None
    line = 0
    names: set[str] | None = set()
    for node in ast.walk(tree):
        value: ast.expr | None = None
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ) or (
            isinstance(node, (ast.AugAssign, ast.AnnAssign))
            and isinstance(node.target, ast.Name)
            and node.target.id == "__all__"
        ):
            value = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "__all__"
        ):
            if node.func.attr == "append":
                value = ast.Tuple(elts=list(node.args))
            else:  # `extend(...)`, or a method whose effect is not read: as if computed
                value = node.args[0] if node.func.attr == "extend" and node.args else None
        else:
            continue
        line = min(line, node.lineno) if line else node.lineno
        listed = _literal_names(value) if value is not None else None
        if listed is None or names is None:
            names = None
        else:
            names.update(listed)
    if not line:
        return None
    return line, None if names is None else frozenset(names)


def exported(ctx: RuleContext, name: str) -> str | None:
    """Why the module's name `name` may be used by other modules, which this file does not show,
    or None: the module's `__all__` lists it (or is computed, and may list it)."""
    exports = _exports(ctx.source)
    if exports is None:
        return None
    line, names = exports
    if names is None:
        return f"line {line} computes `__all__`, which may export `{name}`"
    if name in names:
        return f"line {line} exports `{name}` to other modules (`__all__`)"
    return None


def block_exported_imports(
    ctx: RuleContext, original: cst.ImportFrom, qualified_name: str
) -> list[cst.ImportAlias]:
    """Keep the imports of `qualified_name` in `original` whose name the module exports: other
    modules, which this file does not show, may use the name as TF 2.3 did (`ctx.block` of the
    import alias, whose rule then reports it and leaves it as it is). The aliases kept so."""
    parent, last = qualified_name.rsplit(".", 1)
    module = dotted_name_of_module(original.module) if original.module and not original.relative else None
    if module is None or normalize(module) != parent or isinstance(original.names, cst.ImportStar):
        return []
    kept = []
    for alias in original.names:
        if dotted_name_of_module(alias.name) != last:
            continue
        why = exported(ctx, code_for(alias.asname.name) if alias.asname is not None else last)
        if why is not None:
            ctx.block(alias, why)
            kept.append(alias)
    return kept
