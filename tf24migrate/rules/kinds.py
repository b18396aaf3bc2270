"""The rewrites behind rename-like rules, written once; each rule of these kinds is a table row.

- `RenameSymbol`: a TensorFlow symbol reached through imports (`tf.a.B` -> `tf.a.C`, and
  `from tensorflow.a import B` -> `from tensorflow.a import C`, references following; or `import C
  as B` where the file's own names would meet the rename: `rules.names.renames_cleanly`).
- `RenameMethod`: an attribute by name on any receiver (`s.experimental_run_v2` -> `s.run`).
- `RenameKeyword`: a keyword argument in calls of named methods or functions.
- `ReportUse`: TensorFlow symbols with no mechanical replacement; every use is reported.
- `ShiftedPositionals`: callables and methods whose positional parameters changed; the arguments
  from the first change on are passed by keyword.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from tf24migrate.rules.base import IMPORTS_TENSORFLOW, MENTIONS_TENSORFLOW, DataRule
from tf24migrate.rules.calls import code_for, keyword_arg
from tf24migrate.rules.context import EVIDENCE, RuleContext
from tf24migrate.rules.edits import AddStatementAfter, Edit, MoveBinding, RenameBinding, TrackUses
from tf24migrate.rules.names import (
    attribute_takes,
    defines_attribute,
    defines_keyword,
    dotted_name_of_module,
    normalize,
    renames_cleanly,
    tf_spelling,
)
from tf24migrate.rules.needles import MethodCallLines, attribute, keyword
from tf24migrate.rules.receivers import tensorflow_class_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from tf24migrate.model.release_diff import Signature
    from tf24migrate.rules.needles import Needle


def callee_name(call: cst.Call) -> str | None:
    """The last name of a call's function: `compile` for `model.compile(...)`."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return None


class RenameSymbol(DataRule):
    """A TensorFlow symbol that was renamed; see `old` and `new`."""

    def __init__(
        self, *, old: str, new: str, message: str | None = None, uses_must_follow: bool = False, **kwargs
    ) -> None:
        kwargs.setdefault("triggers", (old.rsplit(".", 1)[1],))
        kwargs.setdefault("requires", IMPORTS_TENSORFLOW)
        super().__init__(**kwargs)
        self.old = old
        self.new = new
        # Whether the new object behaves differently, so that an import may only move when every
        # use of its name is migrated too (see `tf24migrate.engine.linked`); pure renames need not.
        self.uses_must_follow = uses_must_follow
        self.message = message or f"`{tf_spelling(old)}` is `{tf_spelling(new)}` in TF 2.4: use the new name."

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if ctx.qualified_name(original) != self.old:
            return updated
        new = ctx.spell(self.new, like=original)
        if new is None:
            ctx.report(original, self.message)
            return updated
        new = new.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        return ctx.report(original, self.message, replacement=new) or updated

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        if original.relative or isinstance(original.names, cst.ImportStar):
            return updated
        assert not isinstance(updated.names, cst.ImportStar)
        module = dotted_name_of_module(original.module)
        old_parent, old_last = self.old.rsplit(".", 1)
        if module is None or normalize(module) != old_parent:
            return updated
        new_parent, new_last = self.new.rsplit(".", 1)
        names = list(updated.names)
        keep = [True] * len(names)
        moved_module: cst.BaseExpression | None = None
        # Earlier rules may have removed names of this statement: pair the names left with their
        # original aliases by what they import.
        originals = {_import_key(alias): alias for alias in original.names}
        for index, current in enumerate(names):
            alias = originals.get(_import_key(current))
            if alias is None or dotted_name_of_module(alias.name) != old_last:
                continue
            kept = ctx.blocked_reason(alias)
            if kept is not None:  # a use of the name is not migrated: the import must stay
                ctx.report(alias, f"{self.message} The import stays as it is: {kept}; migrate them first.")
                continue
            renamed = names[index].with_changes(name=cst.Name(new_last))
            if alias.asname is not None and code_for(alias.asname.name) == new_last:
                renamed = renamed.with_changes(asname=None)  # `import mixed_precision as mixed_precision`
            edits: list[Edit] = [MoveBinding(alias, self.new)]
            if alias.asname is None and new_last != old_last:
                # another file importing the old name from this one would fail
                if renames_cleanly(ctx.source, old_last, new_last) and not ctx.imported_elsewhere(old_last):
                    edits.insert(0, RenameBinding(alias, new_last))
                else:  # the file's own names would meet the new one: the import keeps the old name
                    renamed = renamed.with_changes(asname=cst.AsName(name=cst.Name(old_last)))
            if self.uses_must_follow:
                edits.append(TrackUses(alias))
            if new_parent == old_parent:
                if ctx.report(alias, self.message, replacement=renamed, edits=edits) is not None:
                    names[index] = renamed
            elif len(names) == 1:
                if ctx.report(alias, self.message, replacement=renamed, edits=edits) is not None:
                    names[index] = renamed
                    moved_module = cst.parse_expression(new_parent)
            elif not isinstance(ctx.ancestors[0], cst.SimpleStatementLine):
                # `if c: from a import x, y`: no line of its own to put the moved name's import after
                ctx.report(alias, f"{self.message} Put this import on a line of its own to have it fixed.")
            else:
                moved = cst.parse_statement(
                    f"from {new_parent} import {code_for(renamed.with_changes(comma=cst.MaybeSentinel.DEFAULT))}\n"
                )
                edits.append(AddStatementAfter(moved))
                if (
                    ctx.report(alias, self.message, replacement=cst.RemoveFromParent(), edits=edits)
                    is not None
                ):
                    keep[index] = False
        names = [alias for alias, kept in zip(names, keep, strict=True) if kept]
        if names and updated.rpar is None and names[-1].comma is not cst.MaybeSentinel.DEFAULT:
            names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        if not names:
            return cst.RemoveFromParent()
        if moved_module is not None:
            return updated.with_changes(names=names, module=moved_module)
        return updated.with_changes(names=names)


def _internal(names: Iterable[str]) -> bool:
    """Whether `names` hold one of TensorFlow's internal modules (`tensorflow.python...`): a
    rule reading it reads internals (`Rule.reads_internals`)."""
    return any(name.startswith("tensorflow.python.") for name in names)


def _import_key(alias: cst.ImportAlias) -> tuple[str | None, str | None]:
    return dotted_name_of_module(alias.name), code_for(alias.asname.name) if alias.asname else None


class ReportUse(DataRule):
    """TensorFlow symbols whose every use is reported: attribute chains, imported names and the
    `from ... import` lines themselves. `symbols` maps each qualified name to its message. A rule
    with internal symbols (`tensorflow.python...`) reads internals (`Rule.reads_internals`): it is
    quiet in TensorFlow's own sources, told by where they live (`catalogue.own_sources`), and
    checks every other file, also one that imports only internals; so it requires only a mention
    of `tensorflow` unless told otherwise."""

    def __init__(self, *, symbols: dict[str, str], **kwargs) -> None:
        internal = _internal(symbols)
        kwargs.setdefault("triggers", tuple(sorted({name.rsplit(".", 1)[1] for name in symbols})))
        kwargs.setdefault("requires", MENTIONS_TENSORFLOW if internal else IMPORTS_TENSORFLOW)
        kwargs.setdefault("fix", None)
        super().__init__(**kwargs)
        self.symbols = symbols
        self.reads_internals = internal

    def _message(self, ctx: RuleContext, qualified: str | None) -> str | None:
        return self.symbols.get(qualified or "")

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        message = self._message(ctx, ctx.qualified_name(original))
        if message is not None:
            ctx.report(original, message)
        return updated

    def leave_Name(self, ctx: RuleContext, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        if ctx.is_reference(original):
            message = self._message(ctx, ctx.qualified_name(original))
            if message is not None:
                ctx.report(original, message)
        return updated

    def leave_ImportFrom(
        self, ctx: RuleContext, original: cst.ImportFrom, updated: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        module = dotted_name_of_module(original.module)
        if original.relative or module is None or isinstance(original.names, cst.ImportStar):
            return updated
        for alias in original.names:
            message = self._message(ctx, f"{normalize(module)}.{dotted_name_of_module(alias.name)}")
            if message is not None:
                ctx.report(alias, message)
        return updated


class RenameMethod(DataRule):
    """A method of TensorFlow objects that was renamed, matched by name on any receiver; only
    reported in a file that defines a method (or attribute) of that name itself, which a call may
    reach instead."""

    follows = ()  # the attribute is the whole match

    def __init__(self, *, old: str, new: str, message: str, **kwargs) -> None:
        kwargs.setdefault("triggers", (attribute(old),))
        super().__init__(**kwargs)
        self.old = old
        self.new = new
        self.message = message

    def leave_Attribute(
        self, ctx: RuleContext, original: cst.Attribute, updated: cst.Attribute
    ) -> cst.BaseExpression:
        if original.attr.value != self.old or ctx.resolves_to_module_other_than_tensorflow(original):
            return updated
        if defines_attribute(ctx.source, self.old):  # a wrapper's method: which one is called is not seen
            ctx.report(
                original,
                f"{self.message}\nNot rewritten: this file defines a `{self.old}` of its own (a wrapper's "
                f"method, or one patched onto an object), which this call may reach: rename the calls "
                f"of TensorFlow's by hand.",
            )
            return updated
        replacement = updated.with_changes(attr=updated.attr.with_changes(value=self.new))
        return ctx.report(original, self.message, replacement=replacement) or updated


class RenameKeyword(DataRule):
    """A keyword argument that was renamed, in calls of the named methods or functions; only
    reported in a file that defines such a function taking the old keyword itself (a wrapper),
    which a call may reach instead."""

    follows = ()  # the call holding the keyword is the whole match

    def __init__(self, *, callees: tuple[str, ...], old: str, new: str, message: str, **kwargs) -> None:
        kwargs.setdefault("triggers", (keyword(old),))
        super().__init__(**kwargs)
        self.callees = frozenset(callees)
        self.old = old
        self.new = new
        self.message = message

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if callee_name(original) not in self.callees or ctx.resolves_to_module_other_than_tensorflow(
            original.func
        ):
            return updated
        keywords = {arg.keyword.value for arg in original.args if arg.keyword is not None}
        if self.old not in keywords:
            return updated
        if defines_keyword(
            ctx.source, self.callees, self.old
        ):  # a wrapper's: which one is called is not seen
            for arg in original.args:
                if arg.keyword is not None and arg.keyword.value == self.old:
                    ctx.report(
                        arg,
                        f"{self.message}\nNot rewritten: this file defines a `{callee_name(original)}` "
                        f"taking `{self.old}=` (a wrapper's), which this call may reach: rename the "
                        "keyword in the calls of TensorFlow's by hand.",
                    )
            return updated
        args = list(updated.args)
        for index, arg in enumerate(original.args):
            keyword = args[index].keyword
            if arg.keyword is None or arg.keyword.value != self.old or keyword is None:
                continue
            if self.new in keywords:
                ctx.report(
                    arg, f"{self.message} The call passes both `{self.old}=` and `{self.new}=`: keep one."
                )
                continue
            renamed = args[index].with_changes(keyword=keyword.with_changes(value=self.new))
            if ctx.report(arg, self.message, replacement=renamed) is not None:
                args[index] = renamed
        return updated.with_changes(args=args)


def _first_change(old: tuple[str, ...], new: tuple[str, ...]) -> int | None:
    """The index of the first positional parameter of `old` that `new` does not have there."""
    return next((index for index, name in enumerate(old) if index >= len(new) or new[index] != name), None)


def _shifting(signatures: Signature) -> int:
    """How many positional arguments a call needs for a finding: one beyond the first change;
    none when a keyword is refused (it is reported wherever it is passed)."""
    old, new, gone, takes_kwargs = signatures
    first = _first_change(old, new)
    if (gone and not takes_kwargs) or first is None:
        return 0
    return first + 1


class ShiftedPositionals(DataRule):
    """Callables whose positional parameters changed: a positional argument from the first change
    on binds to another parameter in the new release; a keyword the new release no longer takes
    (and no `**kwargs` of its takes) is reported where it is passed. `signatures` maps each callable's qualified
    name to its positional parameters in the old release and in the new one, the keywords the new
    one no longer takes by name, and whether it takes `**kwargs` (where such a keyword still
    passes), as the released wheels give them (`tf24migrate/model/release_diff.py`). The fix passes
    those arguments by the old release's keywords, which mean the same in both releases.

    `methods` maps `(qualified class, method)` to the same of the method: a call `x.method(...)`
    is checked where the file shows `x` to be an instance of that class (`rules.receivers`:
    `self` or `super()` in a class derived from it, a name bound to a construction of it).
    `ignored` names the parameters the new release takes through `**kwargs` and drops, each with
    what happens to it: a value given to one (not `None`) is still passed, and the message says
    it no longer does anything."""

    follows = ()  # the call is the whole match (a method's receiver: `MethodCallLines`)

    def __init__(
        self,
        *,
        signatures: Mapping[str, Signature],
        methods: Mapping[tuple[str, str], Signature] | None = None,
        ignored: Mapping[str, str] | None = None,
        advice: str = "",
        **kwargs,
    ) -> None:
        self.methods = dict(methods or {})
        self.ignored = dict(ignored or {})
        self.advice = f"\n{advice}" if advice else ""
        self.reads_internals = _internal(signatures)  # quiet in TensorFlow's own sources
        method_names = tuple(sorted({method for _, method in self.methods}))
        # `LSTM(`: a call, not the classes' names in Keras's own sources and docstrings
        triggers: list[Needle] = [*sorted({f"{name.rsplit('.', 1)[1]}(" for name in signatures})]
        if method_names:
            triggers.append(MethodCallLines(min(map(_shifting, self.methods.values())), *method_names))
        kwargs.setdefault("triggers", tuple(triggers))
        kwargs.setdefault("requires", IMPORTS_TENSORFLOW)
        super().__init__(**kwargs)
        self.signatures = signatures
        self.method_names = frozenset(method_names)

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualified = ctx.qualified_name(original.func) or ""
        signatures = self.signatures.get(qualified)
        if signatures is not None:
            return self._check(ctx, original, updated, qualified.rsplit(".", 1)[1], signatures, None)
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in self.method_names:
            return updated
        found = tensorflow_class_of(ctx, original)
        signatures = self.methods.get((found[0], func.attr.value)) if found is not None else None
        if found is None or signatures is None:
            return updated
        name = f"{found[0].rsplit('.', 1)[1]}.{func.attr.value}"
        return self._check(ctx, original, updated, name, signatures, found[1])

    def _check(
        self,
        ctx: RuleContext,
        original: cst.Call,
        updated: cst.Call,
        name: str,
        signatures: Signature,
        evidence: str | None,
    ) -> cst.BaseExpression:
        """The findings of a call of `name`, whose parameters changed as `signatures` says;
        `evidence`: why the call is one of `name` (a method's receiver), said last; None for a
        callable."""
        old, new, gone, takes_kwargs = signatures
        why = self.advice + (f"\n{EVIDENCE}." if evidence is not None else "")
        if not takes_kwargs:
            for arg in original.args:
                if arg.keyword is not None and arg.keyword.value in gone:
                    keyword = arg.keyword.value
                    ctx.report(
                        arg,
                        f"`{name}` takes no `{keyword}` from TF 2.4{_in_its_place(keyword, old, new)}: remove it, "
                        f"or see the release notes.{why}",
                        evidence=evidence,
                    )
        first = _first_change(old, new)
        if first is None:
            return updated
        if old[first] not in new:
            change = f"`{name}` no longer takes `{old[first]}` by position in TF 2.4"
        else:
            change = f"`{name}` gained `{new[first]}` after `{old[first - 1]}` in TF 2.4"
        positional = [arg for arg in original.args if arg.keyword is None and not arg.star]
        if any(arg.star == "*" for arg in original.args):
            if evidence is not None:  # a method's: an override passing its own `*args` on, most often
                return updated
            ctx.report(
                original,
                f"{change}: pass the arguments after `{old[first - 1]}` by keyword instead of through `*args`.{why}",
                evidence=evidence,
            )
            return updated
        if len(positional) <= first:
            return updated
        if any(
            arg.keyword is not None and arg.keyword.value in old[: len(positional)] for arg in original.args
        ):
            return updated  # a parameter passed twice by TF 2.3's order: the call is not TF 2.3 code
        if len(positional) > len(old):
            ctx.report(
                original,
                f"`{name}` takes at most {len(old)} positional arguments in TF 2.3.{why}",
                evidence=evidence,
            )
            return updated
        names = old[first : len(positional)]
        message = f"{change}: pass the later arguments by keyword ({', '.join(names)})."
        # a keyword TF 2.4 refuses, or one whose place a new parameter took: TF 2.4's `**kwargs`
        # takes it, but nothing there reads it (`np_array_ops.pad`'s `ary`, now `array`)
        refused = [
            keyword
            for keyword in names
            if keyword in gone and (not takes_kwargs or _successor(keyword, old, new))
        ]
        if refused:
            successor = _successor(refused[0], old, new)
            if successor is not None:
                message = (
                    f"`{name}` has `{successor}` in place of `{refused[0]}` in TF 2.4: check that the argument "
                    f"in its place means the same, or see the release notes."
                )
            else:
                message += f"\nTF 2.4 takes no `{refused[0]}` at all: remove it, or see the release notes."
            ctx.report(original, message + why, evidence=evidence)
            return updated
        ignored = [  # a value for a parameter TF 2.4 takes through `**kwargs` and drops
            old[index]
            for index in range(first, len(positional))
            if old[index] in gone and old[index] in self.ignored and not _is_none(positional[index].value)
        ]
        if ignored:
            message += f"\nTF 2.4 ignores `{ignored[0]}`: {self.ignored[ignored[0]]}."
        method = original.func.attr.value if isinstance(original.func, cst.Attribute) else ""
        if evidence is not None and not attribute_takes(ctx.source, method, names):
            ctx.report(  # an override in a derived class, or a method patched on, taking other names
                original,
                f"{message}\nNot rewritten: this file defines a `{method}` of its own that takes other "
                f"parameters (an override in a derived class, or one patched onto a class), which this call "
                f"may reach: write the keywords by hand where it reaches TensorFlow's.{why}",
                evidence=evidence,
            )
            return updated
        args = list(updated.args)
        for index in range(first, len(positional)):
            args[index] = keyword_arg(old[index], args[index].value, like=args[index])
        replacement = updated.with_changes(args=args)
        return ctx.report(original, message + why, replacement=replacement, evidence=evidence) or updated


def _successor(keyword: str, old: tuple[str, ...], new: tuple[str, ...]) -> str | None:
    """The parameter the new release has at `keyword`'s position that the old one had not
    (`variable_names_denylist` for `variable_names_blacklist`), else None."""
    index = old.index(keyword) if keyword in old else len(new)
    if index < len(new) and new[index] not in old:
        return new[index]
    return None


def _in_its_place(keyword: str, old: tuple[str, ...], new: tuple[str, ...]) -> str:
    """` (it has `x` in its place)`, where the new release has a parameter in `keyword`'s place
    (`_successor`), else ""."""
    successor = _successor(keyword, old, new)
    return f" (it has `{successor}` in its place)" if successor is not None else ""


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"
