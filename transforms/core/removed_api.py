"""TF24508 `removed-api`: a module or name of TF 2.3.0 that TF 2.4.0 no longer has, found from the
released wheels (`tf24migrate/model/release_diff.py`)."""

from __future__ import annotations

import re
from typing import TypeVar

import libcst as cst

from tf24migrate.model.findings import Fix, Severity
from tf24migrate.model.release_diff import (
    CHANGED_AT_HOME,
    CHANGED_WHEN_MOVED,
    HOMES_IN_OLD,
    NEW,
    OLD,
    REMOVED,
)
from tf24migrate.rules.base import MENTIONS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext
from tf24migrate.rules.names import dotted_name_of_module, normalize
from tf24migrate.rules.needles import Needle, RemovedReference

from .hidden_internal_modules import HIDDEN_MODULES

# Removed names that another rule reports, with what to write instead.
REPORTED_ELSEWHERE = {
    "tensorflow.keras.utils.multi_gpu_model": "TF24202",
    "tensorflow.keras.utils.HDF5Matrix": "TF24202",
    "tensorflow.keras.utils.convert_all_kernels_in_model": "TF24202",
    "tensorflow.keras.experimental.terminate_keras_multiprocessing_pools": "TF24202",
}
# Of the names a moved module's home defines with other parameters (`CHANGED_AT_HOME`: TF 2.4's
# stable mixed precision classes took the names of TF 2.3's, which are the `V1` ones there), the
# ones that differ only in some uses: the stable `Policy(name)` computes and stores as TF 2.3's
# did; it has no loss scale (no second argument, no `loss_scale` nor `should_cast_variables`). A
# file with none of those uses may move its import. `{call}` stands for the names the file calls
# it by (`Policy`, and `P` after `import Policy as P`).
_DIFFERS_WHERE = {
    "Policy": r"\b(?:loss_scale|should_cast_variables)\b|\b(?:{call})\s*\([^(),]*(?:\([^()]*\)[^(),]*)*,"
}
Fixed = TypeVar("Fixed", bound=cst.CSTNode)
# A fix to a home TF 2.3 already has works there too: such a finding's new spelling is TF 2.3's.
_OLD_RELEASE = ".".join(OLD.split(".")[:2])
# The packages of `tensorflow` that are not its public API (nor is any `.python.` module, as in
# `tensorflow.lite.python`): reached through imports only.
_INTERNAL = ("python", "core", "compiler", "tools", "examples")


def removed(qualified: str) -> str | None:
    """The innermost module or name of `qualified` (itself or a dotted prefix) TF 2.4.0 lacks, or
    None (also for what another rule reports)."""
    parts = qualified.split(".")
    for end in range(len(parts), 1, -1):
        prefix = ".".join(parts[:end])
        if prefix in REMOVED:
            return None if prefix in REPORTED_ELSEWHERE else prefix
    return None


def _inside_removed(qualified: str) -> bool:
    """Whether a proper prefix of `qualified` is a removed module (whose import is reported)."""
    parts = qualified.split(".")
    return any(".".join(parts[:end]) in REMOVED for end in range(2, len(parts)))


def _triggers() -> tuple[Needle, ...]:
    """What can reach the table: a path in an internal package (`RemovedReference`, which also
    finds the uses of the names a module lost through what its import binds); the last name of a
    removed public name."""
    internal = {name for name in REMOVED if name.split(".")[1] in _INTERNAL or ".python." in name}
    public = {name.rsplit(".", 1)[1] for name in REMOVED.keys() - internal - REPORTED_ELSEWHERE.keys()}
    packages = sorted({".".join(name.split(".")[:2]) for name in internal})
    return (RemovedReference(*packages), *sorted(public))


def _message(gone: str, lost: list[str], elsewhere: str | None = None) -> str:
    """What a finding on the removed `gone` says; `lost`: names imported from it that its new home
    lacks; `elsewhere`: where another file imports what the import binds, if one does."""
    home, public, home_later, _ = REMOVED[gone]
    if public:
        first = f"`{gone}` is gone from TF 2.4: use the public `{public.replace('tensorflow', 'tf', 1)}`."
    elif _fixable(gone, lost):
        first = f"`{gone}` is gone from TF 2.4: use `{home}`, the same object."
    else:
        first = f"`{gone}` is gone from TF 2.4: use the public `tf.*` API, or copy what you need from TF 2.3's sources."
    if not home:
        return f"{first}\nTensorFlow {NEW} has it nowhere: the import fails (ImportError or AttributeError)."
    notes = []
    if lost or not home_later or gone in CHANGED_WHEN_MOVED:
        notes.append(f"TensorFlow {NEW} has it as `{home}`")
    if gone in CHANGED_WHEN_MOVED:
        notes.append("where it is defined anew, with other parameters")
    changed = CHANGED_AT_HOME.get(gone, {})
    missing = [name for name in lost if name not in changed]
    if missing:
        notes.append(f"which has no {', '.join(f'`{name}`' for name in missing)}")
    notes.extend(
        f"whose `{name}` is defined anew, with other parameters"
        + (f" (TF 2.3's is its `{changed[name]}`)" if changed[name] else "")
        for name in lost
        if name in changed
    )
    if not home_later:
        notes.append("gone again by TensorFlow 2.15")
    where = ", ".join(notes) + ". " if notes else ""
    if elsewhere:
        where += f"{elsewhere}, whose uses of it this file cannot see. "
    return f"{first}\n{where}Internal modules move between releases: prefer the public `tf.*` API."


def _note(gone: str) -> str:
    """What a note on the removed `gone` says where a guarded import falls back when it fails."""
    home, public, _, _ = REMOVED[gone]
    first = f"`{gone}` is gone from TF 2.4: there this line fails and the `except` falls back."
    if public:
        return f"{first}\nTensorFlow {NEW} has it as the public `{public.replace('tensorflow', 'tf', 1)}`."
    if home:
        return (
            f"{first}\nTensorFlow {NEW} has it as `{home}`: check that the fallback is that or does the same."
        )
    return f"{first}\nTensorFlow {NEW} has it nowhere: check that the fallback does what TF 2.3's did."


def _report(
    ctx: RuleContext, node: cst.CSTNode, gone: str, message: str, replacement: Fixed | None = None
) -> Fixed | None:
    """Report the removed `gone` at `node` as the code around it asks: a note without a fix in the
    body of a `try` that falls back when the import fails, nothing in other shims (behind a
    version check, in the fallback itself), else `message` with `replacement` (where TF 2.4 has it
    nowhere, its versions say there is no new spelling)."""
    guard = ctx.guard
    if guard is None:
        home, public, _, _ = REMOVED[gone]
        return ctx.report(
            node,
            message,
            replacement=replacement,
            new_spelling=bool(home or public),
            new_since=_OLD_RELEASE if gone in HOMES_IN_OLD else None,
        )
    if guard == "fallback":
        ctx.report(node, _note(gone), note=True)
    return None


def _moved(statement: cst.ImportFrom, home: str, name: str) -> cst.ImportFrom:
    """`from <module> import name` as `from <home's module> import <home's name>`, still bound to
    what it bound (`from a import b_v1 as b`)."""
    module, new_name = home.rsplit(".", 1)
    assert not isinstance(statement.names, cst.ImportStar)
    alias = statement.names[0]
    if new_name != name:
        alias = alias.with_changes(
            name=cst.Name(new_name), asname=alias.asname or cst.AsName(name=cst.Name(name))
        )
    return statement.with_changes(module=cst.parse_expression(module), names=[alias])


def _dotted(module: str) -> cst.Attribute | cst.Name:
    """A module's dotted name as the module of an import."""
    expression = cst.parse_expression(module)
    assert isinstance(expression, (cst.Attribute, cst.Name))
    return expression


def _lost(gone: str, ctx: RuleContext) -> tuple[str, ...]:
    """The names of the moved module `gone` that its home lacks, or binds to another object
    (that behaves otherwise in the file's uses, or may in another file's)."""
    changed = [name for name in CHANGED_AT_HOME.get(gone, ()) if _differs(ctx, name)]
    return (*REMOVED[gone][3], *changed)


def _differs(ctx: RuleContext, name: str, bound: str = "") -> bool:
    """Whether the class `name`, another class at its new home, behaves otherwise in the file's
    uses (`_DIFFERS_WHERE`), or may in another file's (`_used_elsewhere`). `bound`: the name an
    import binds it to, where that is another (`from ... import Policy as P`)."""
    if name not in _DIFFERS_WHERE:
        return True
    called = _called(name, bound)
    return bool(re.search(_DIFFERS_WHERE[name].replace("{call}", called), ctx.source)) or bool(
        _used_elsewhere(ctx, name, bound)
    )


def _called(name: str, bound: str = "") -> str:
    """The names the file calls the class `name` by, `bound` too (an import's `as`), as one
    alternation of a pattern."""
    return "|".join(map(re.escape, sorted({name, bound} - {""})))


def _used_elsewhere(ctx: RuleContext, name: str, bound: str = "") -> str | None:
    """Where another file imports what this file binds of `name` (`` `P` is imported by
    `train.py` (line 1) ``), or None: the name itself, or `bound`, the name an import binds it
    to; or a module-level name this file binds to one of its objects (`policy =
    Policy("mixed_float16")`, then `from utils import policy` and `policy.loss_scale`; such a
    name is `rebound`, so the run looks)."""
    made = re.compile(
        rf"^(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*(?:[\w.]+\.)?(?:{_called(name, bound)})[ \t]*\(", re.MULTILINE
    )
    spellings = sorted({name, bound} - {""})
    for spelled in (*spellings, *(match.group(1) for match in made.finditer(ctx.source))):
        where = ctx.imported_elsewhere(spelled)
        if where:
            return f"`{spelled}` is imported by {where}"
    return None


def _elsewhere(ctx: RuleContext, aliases: list[cst.ImportAlias]) -> str | None:
    """Where another file imports what one of `aliases` binds (`_used_elsewhere`), or None."""
    for alias in aliases:
        bound = _bound(alias)
        where = _used_elsewhere(ctx, bound) if bound else None
        if where:
            return where
    return None


def _bound(alias: cst.ImportAlias) -> str | None:
    """The name an import's alias binds, where it is a plain name (`import a.b` binds `a`)."""
    target = alias.asname.name if alias.asname else alias.name
    return target.value if isinstance(target, cst.Name) else None


def _lost_through(ctx: RuleContext, gone: str, bound: cst.BaseExpression | None) -> list[str]:
    """The names of the moved module `gone` that its home lacks and that the file reads as
    attributes of `bound`, the name its import binds (`policy.USE_DEFAULT`); all of them, and
    those its home binds to another class, where another file imports `bound` (`from utils import
    pol`, then `pol.Policy("mixed_float16", loss_scale=128)`), whose reads this file cannot see."""
    if not isinstance(bound, cst.Name):
        return []
    if ctx.imported_elsewhere(bound.value):
        return [*REMOVED[gone][3], *CHANGED_AT_HOME.get(gone, ())]
    return [
        name
        for name in _lost(gone, ctx)
        if re.search(rf"(?<![\w.]){re.escape(bound.value)}\s*\.\s*{re.escape(name)}\b", ctx.source)
    ]


def _fixable(gone: str, lost: list[str]) -> bool:
    """Whether an import of the removed `gone` may move to its home: the home lasts, holds every
    name the file reads of it (`lost`: none), and is the same object (its parameters unchanged)."""
    home, _, home_later, _ = REMOVED[gone]
    return bool(home) and home_later and not lost and gone not in CHANGED_WHEN_MOVED


class RemovedApi(Rule):
    """A module or name of TF 2.3.0 that TF 2.4.0 no longer has, found from the released wheels.

    The table is the difference of the two releases themselves (`python -m tf24migrate.dev
    releases`): every module of the `tensorflow` package and every name a module binds, the
    internal `tensorflow.python` ones included, that the tensorflow-cpu 2.3.0 wheel has and the 2.4.0
    wheel has not: `tensorflow.python.keras.mixed_precision.experimental` and its modules, the
    `training_arrays`, `training_eager`, ... modules of `tensorflow.python.keras.engine` (renamed
    `*_v1`), `tf_utils.smart_cond`, `conv_utils.convert_kernel`, `training._minimize`, the optimizer
    classes of `tensorflow.python.keras.optimizers`, and about 600 more. An import of one, or an
    attribute chain reaching one through an import, fails on TF 2.4 with ImportError or
    AttributeError.

    Where the same object lives elsewhere in TF 2.4.0 (a module of that name, maybe `_v1`, that
    defines what the old one defined; a module that now defines the name) and still does in TF
    2.15.1, a `from ... import` of one name, or of names from a moved module, and an `import ...
    as` are fixed: they import the new home, bound to the same name (not where the file reads a
    name of a moved module that its home lacks, `policy.policy_defaults_to_floatx`, nor where the
    home defines the name anew, with parameters a call written for TF 2.3 binds otherwise, as the
    wheels' sources say: TF 2.4's `LossScaleOptimizer` there is the stable one, and so is `Policy`,
    which differs where a loss scale is passed or read; `ops.enable_auto_cast_variables` moved
    without its `graph=`). Every other reference is reported, naming the new home or saying that TF 2.4.0
    has the object nowhere. Where the reference is in the body of a `try` whose `except`
    catches ImportError or AttributeError and falls back to something (a guarded import), the
    finding is a note without a fix: the line fails on TF 2.4 and the fallback runs; the note
    says what TF 2.4.0 has instead. Nothing is reported where the file defines the name itself,
    behind a version check, in a guarded import's fallback, in TensorFlow's own sources (a file
    in a `tensorflow` package, which moves with it; a user's file that imports only internals
    is checked), or for the public names TF24202 reports. Internal modules move between releases: the public `tf.*` API is the lasting
    fix.

    Where TF 2.3.0 already has the new home (the old module imported the name from there, as
    `training_utils` did the `smart_cond` module of `tensorflow.python.framework`), the fix works
    on both releases and is applied for a target of TF 2.3 too; its versions say so.

    Before: `from tensorflow.python.keras.utils.tf_utils import smart_cond`
    After:  `from tensorflow.python.keras.utils.control_flow_util import smart_cond`

    Versions: the modules and names of the tensorflow-cpu 2.3.0 and 2.4.0 wheels (and 2.15.1 for
    the new homes), read from their files by `tf24migrate/dev/release_probe.py`, in
    tf24migrate/model/release_diff.py.
    """

    code = "TF24508"
    name = "removed-api"
    new_since = "2.4"
    old_removed = "2.4"
    fix = Fix.SAFE
    severity = Severity.ERROR
    triggers = _triggers()
    follows = ()  # the needle finds the uses of what an import binds
    requires = MENTIONS_TENSORFLOW
    reads_internals = True  # quiet in TensorFlow's own sources only (`catalogue.own_sources`)
    runs_in_shims = True  # a note where a guarded import falls back, nothing behind a version check

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        spelled = dotted_name_of_module(original.module)
        if original.relative or spelled is None or original.module is None:
            return updated
        module = normalize(spelled)
        names = [] if isinstance(original.names, cst.ImportStar) else list(original.names)
        imported = [f"{module}.{dotted_name_of_module(alias.name)}" for alias in names]
        gone = removed(module)
        if gone is not None and not (names and all(name in REMOVED for name in imported)):
            # the module itself is gone (`from gone.module import a, b`)
            lost = [
                name
                for name, bound in (
                    (dotted_name_of_module(alias.name) or "", _bound(alias) or "") for alias in names
                )
                if name in REMOVED[gone][3]
                or (name in CHANGED_AT_HOME.get(gone, ()) and _differs(ctx, name, bound))
            ]
            replacement = None
            if _fixable(gone, lost) and names:
                home = REMOVED[gone][0] + module[len(gone) :]
                replacement = updated.with_changes(module=_dotted(home))
            elsewhere = None if replacement else _elsewhere(ctx, names)
            return (
                _report(ctx, original.module, gone, _message(gone, lost, elsewhere), replacement) or updated
            )
        for alias, qualified in zip(names, imported, strict=True):
            gone = removed(qualified)
            if gone is None:
                continue
            replacement = None
            lost = _lost_through(ctx, gone, alias.asname.name if alias.asname else alias.name)
            if _fixable(gone, lost) and gone == qualified and len(names) == 1:
                home_module, home_name = REMOVED[gone][0].rsplit(".", 1)
                moved = updated.names[0] if not isinstance(updated.names, cst.ImportStar) else alias
                if home_name != qualified.rsplit(".", 1)[1]:
                    asname = moved.asname or cst.AsName(name=cst.Name(qualified.rsplit(".", 1)[1]))
                    moved = moved.with_changes(name=cst.Name(home_name), asname=asname)
                replacement = updated.with_changes(module=_dotted(home_module), names=[moved])
            elsewhere = None if replacement else _elsewhere(ctx, [alias])
            if _report(ctx, alias, gone, _message(gone, lost, elsewhere), replacement) is not None:
                return replacement or updated
        return updated

    def leave_Import(
        self, ctx: RuleContext, original: cst.Import, updated: cst.Import
    ) -> cst.BaseSmallStatement:
        for alias in original.names:
            qualified = normalize(dotted_name_of_module(alias.name) or "")
            gone = removed(qualified)
            if gone is None:
                continue
            replacement = None
            lost = _lost_through(ctx, gone, alias.asname.name if alias.asname else None)
            if (
                _fixable(gone, lost)
                and gone == qualified
                and alias.asname is not None
                and len(original.names) == 1
            ):
                home_module, home_name = REMOVED[gone][0].rsplit(".", 1)
                replacement = cst.ImportFrom(  # the form TF24507 writes: it works on Python 3.6
                    module=_dotted(home_module),
                    names=[cst.ImportAlias(name=cst.Name(home_name), asname=alias.asname)],
                    semicolon=updated.semicolon,
                )
            elsewhere = None if replacement else _elsewhere(ctx, [alias])
            if _report(ctx, alias, gone, _message(gone, lost, elsewhere), replacement) is not None:
                return replacement or updated
        return updated

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        qualified = ctx.qualified_name(original) or ""
        if qualified not in REMOVED or qualified in REPORTED_ELSEWHERE or _inside_removed(qualified):
            return updated  # not removed, or inside a removed module whose import is reported
        value: cst.BaseExpression = original.value
        while isinstance(value, cst.Attribute):  # `tf.python.x.y`: TF24501 reports `tf.python`
            if (
                ctx.qualified_name(value) in HIDDEN_MODULES
                and ctx.qualified_name(value.value) == "tensorflow"
            ):
                return updated
            value = value.value
        _report(ctx, original, qualified, _message(qualified, []))
        return updated


RULES = (RemovedApi(),)
