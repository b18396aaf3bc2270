"""`new-rule`: the files of a new rule, written where the registry, the fixtures and the docs find them.

A rename-like rule is a row appended to `transforms/<family>/renames.py` (and to its `RULES`); a
structural rule is a module of its own, `transforms/<family>/<name>.py`, with a `Rule` subclass
that reports calls of `--old`. Either way the rule gets a positive and a negative fixture case,
written so that they hold from the start (`regen` then writes their snapshots).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from tf24migrate.transforms import FAMILIES


class Kind(str, Enum):
    RENAME_SYMBOL = "rename-symbol"
    RENAME_METHOD = "rename-method"
    RENAME_KEYWORD = "rename-keyword"
    REPORT_USE = "report-use"
    STRUCTURAL = "structural"


class ScaffoldError(Exception):
    """A new rule that cannot be written as asked; the message says why and what to pass."""


@dataclass(frozen=True)
class NewRule:
    code: str
    name: str
    family: str
    kind: Kind
    old: str
    new: str | None
    callees: tuple[str, ...] = ()
    new_since: str = "2.4"
    old_removed: str | None = None

    @property
    def severity(self) -> str:
        """What the versions make it: an old spelling that fails is an error; one that keeps
        working, with nothing due, a note (a rule reporting a change of behaviour sets its
        `changed_in` and picks its own severity by hand)."""
        return "error" if self.old_removed else "info"

    @property
    def constant(self) -> str:
        return self.name.replace("-", "_").upper()

    @property
    def class_name(self) -> str:
        return "".join(part.capitalize() for part in self.name.split("-"))

    @property
    def old_tail(self) -> str:
        return self.old.rsplit(".", 1)[-1]

    @property
    def new_tail(self) -> str:
        return (self.new or "").rsplit(".", 1)[-1]


def check(rule: NewRule, taken: dict[str, str]) -> None:
    """Raise `ScaffoldError` unless `rule` can be added beside the registered rules (`taken`:
    code -> name)."""
    if not re.fullmatch(r"TF24[1-8]\d\d", rule.code):
        raise ScaffoldError(f"{rule.code!r} is not a rule code: write TF24 and three digits (TF24110)")
    family = FAMILIES[rule.code[:5]]
    if rule.family != family:
        raise ScaffoldError(
            f"{rule.code} belongs to the family {family!r} (codes {rule.code[:5]}xx), not {rule.family!r}"
        )
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name):
        raise ScaffoldError(f"{rule.name!r} is not a rule name: write lowercase words joined by '-'")
    if rule.code in taken:
        raise ScaffoldError(f"{rule.code} is taken by {taken[rule.code]}: choose a free code")
    if rule.name in taken.values():
        raise ScaffoldError(f"the name {rule.name!r} is taken: choose another")
    needs_new = rule.kind in (Kind.RENAME_SYMBOL, Kind.RENAME_METHOD, Kind.RENAME_KEYWORD)
    if needs_new and not rule.new:
        raise ScaffoldError(f"a {rule.kind.value} rule needs --new (the spelling the fix writes)")
    qualified = rule.kind in (Kind.RENAME_SYMBOL, Kind.REPORT_USE, Kind.STRUCTURAL)
    if qualified and not rule.old.startswith("tensorflow."):
        raise ScaffoldError(f"--old of a {rule.kind.value} rule is a qualified name: tensorflow.{rule.old}")
    if rule.kind is Kind.RENAME_SYMBOL and not (rule.new or "").startswith("tensorflow."):
        raise ScaffoldError(f"--new of a rename-symbol rule is a qualified name: tensorflow.{rule.new}")
    if rule.kind is Kind.RENAME_KEYWORD and not rule.callees:
        raise ScaffoldError(
            "a rename-keyword rule needs --callee (each function or method taking the keyword)"
        )
    _check_spellings(rule)


# What the scaffold writes into Python source: a name (`foo_bar`), or names joined by dots.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = re.compile(rf"{_NAME}(\.{_NAME})*")
_RELEASE = re.compile(r"\d+\.\d+(\.\d+)?")


def _check_spellings(rule: NewRule) -> None:
    """Refuse a spelling that is not Python's (a quote, a space, a path): it would be written
    into the rule's source as it is."""
    one_name = rule.kind in (Kind.RENAME_METHOD, Kind.RENAME_KEYWORD)
    what = "a method or keyword name (foo_bar)" if one_name else "a qualified name (tensorflow.x.Y)"
    for option, value in (("--old", rule.old), ("--new", rule.new)):
        if value is not None and not (re.fullmatch(_NAME if one_name else _DOTTED, value)):
            raise ScaffoldError(f"{option} {value!r} is not {what}: letters, digits and '_' only")
    for callee in rule.callees:
        if not _DOTTED.fullmatch(callee):
            raise ScaffoldError(f"--callee {callee!r} is not a function or method name (tensorflow.x.f, f)")
    for option, release in (("--new-since", rule.new_since), ("--old-removed", rule.old_removed)):
        if release is not None and not _RELEASE.fullmatch(release):
            raise ScaffoldError(f"{option} {release!r} is not a TensorFlow release: write 2.4 or 2.4.1")


# What a new rule's `Versions:` line says until its author writes where the facts were read
# (`test_target` refuses a rule that still says it).
VERSIONS_TO_WRITE = "name the module of the released wheels, or the release note, that shows it"


def _tf(qualified: str) -> str:
    return "tf." + qualified.removeprefix("tensorflow.")


def _versions(rule: NewRule, old: str, new: str | None) -> str:
    gone = f"fails from TF {rule.old_removed}" if rule.old_removed else "still works"
    facts = f"`{new}` exists since TF {rule.new_since}; `{old}` {gone}" if new else f"`{old}` {gone}"
    if not new and rule.new_since:  # a rule without a fix still names the release of what replaces `old`
        facts += f"; what replaces it exists since TF {rule.new_since}"
    return f"Versions: {facts} ({VERSIONS_TO_WRITE})."


def _example(rule: NewRule) -> tuple[str, str]:
    """The rule's example as (old code, new code) and the text the docs show for it."""
    match rule.kind:
        case Kind.RENAME_SYMBOL:
            return f"x = {_tf(rule.old)}()", f"x = {_tf(rule.new or '')}()"
        case Kind.RENAME_METHOD:
            return f"strategy.{rule.old}(fn)", f"strategy.{rule.new}(fn)"
        case Kind.RENAME_KEYWORD:
            callee = rule.callees[0]
            return f"strategy.{callee}(value, {rule.old}=1)", f"strategy.{callee}(value, {rule.new}=1)"
        case Kind.REPORT_USE | Kind.STRUCTURAL:
            return f"x = {_tf(rule.old)}()", "x = None"


def _doc(rule: NewRule, summary: str) -> str:
    before, after = _example(rule)
    old = _tf(rule.old) if rule.old.startswith("tensorflow.") else rule.old
    new = _tf(rule.new) if rule.new and rule.new.startswith("tensorflow.") else rule.new
    if rule.kind in (Kind.REPORT_USE, Kind.STRUCTURAL):
        example = f"Reported: `{before}`\nWrite instead: `{after}` (say what replaces it)"
    else:
        example = f"Before: `{before}`\nAfter:  `{after}`"
    return f"{summary}\n\n{example}\n\n{_versions(rule, old, new)}"


def _message(rule: NewRule) -> str:
    old = _tf(rule.old) if rule.old.startswith("tensorflow.") else rule.old
    new = _tf(rule.new) if rule.new and rule.new.startswith("tensorflow.") else rule.new
    if rule.kind is Kind.RENAME_KEYWORD:
        return f"The keyword `{rule.old}=` is `{rule.new}=` from TF {rule.new_since}."
    if new:
        return f"`{old}` is `{new}` from TF {rule.new_since}: use the new name."
    return f"`{old}` changed in TF {rule.new_since}: say what to write instead."


def _summary(rule: NewRule) -> str:
    return _message(rule).split(":")[0] + "."


def row_source(rule: NewRule) -> str:
    """The row of a rename-like rule, as it is appended to the family's `renames.py`."""
    kind = {
        Kind.RENAME_SYMBOL: "RenameSymbol",
        Kind.RENAME_METHOD: "RenameMethod",
        Kind.RENAME_KEYWORD: "RenameKeyword",
        Kind.REPORT_USE: "ReportUse",
    }[rule.kind]
    fields = [
        f'code="{rule.code}"',
        f'name="{rule.name}"',
        f'new_since="{rule.new_since}"',
        *([f'old_removed="{rule.old_removed}"'] if rule.old_removed else []),
    ]
    if rule.kind is Kind.REPORT_USE:
        fields.append(f'symbols={{"{rule.old}": "{_message(rule)}"}}')
    else:
        if rule.kind is Kind.RENAME_KEYWORD:
            fields.append(f"callees={rule.callees!r}")
        fields += [f'old="{rule.old}"', f'new="{rule.new}"']
        if rule.kind is not Kind.RENAME_SYMBOL:
            fields.append(f'message="{_message(rule)}"')
    fields.append(f"severity=Severity.{rule.severity.upper()}")
    doc = textwrap.indent(_doc(rule, _summary(rule)), "    ")
    body = "".join(f"    {field},\n" for field in fields)
    return f'{rule.constant} = {kind}(\n{body}    doc="""\n{doc}\n    """,\n)\n'


def module_source(rule: NewRule) -> str:
    """The module of a structural rule: a `Rule` subclass that reports the calls of `rule.old`."""
    doc = textwrap.indent(_doc(rule, _summary(rule)), "    ")
    return f'''"""{rule.code} `{rule.name}`: {_summary(rule)}"""

from __future__ import annotations

import libcst as cst

from tf24migrate.model.findings import Severity
from tf24migrate.rules.base import IMPORTS_TENSORFLOW, Rule
from tf24migrate.rules.context import RuleContext

_OLD = "{rule.old}"


class {rule.class_name}(Rule):
    """{doc.strip()}
    """

    code = "{rule.code}"
    name = "{rule.name}"
    new_since = "{rule.new_since}"
    old_removed = {f'"{rule.old_removed}"' if rule.old_removed else None}
    fix = None
    severity = Severity.{rule.severity.upper()}
    triggers = ("{rule.old_tail}",)
    requires = IMPORTS_TENSORFLOW

    def leave_Call(self, ctx: RuleContext, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if ctx.qualified_name(original.func) == _OLD:
            ctx.report(original, "{_message(rule)}")
        return updated


RULES = ({rule.class_name}(),)
'''


_RENAMES_HEADER = '''"""The family's rename-like rules, as rows."""

from __future__ import annotations

from tf24migrate.model.findings import Severity
from tf24migrate.rules.kinds import {kind}

RULES = ()
'''


def add_row(renames: Path, rule: NewRule) -> None:
    """Append `rule`'s row to the family's `renames.py` (made if missing) and list it in `RULES`."""
    kind = row_source(rule).split("(", 1)[0].split(" = ")[1]
    text = renames.read_text(encoding="utf-8") if renames.exists() else _RENAMES_HEADER.format(kind=kind)
    imports = re.search(r"^from tf24migrate\.rules\.kinds import (.+)$", text, re.MULTILINE)
    if imports is None:
        text = text.replace("\nRULES = ", f"\nfrom tf24migrate.rules.kinds import {kind}\n\nRULES = ", 1)
    elif kind not in imports.group(1).split(", "):
        names = ", ".join(sorted({*imports.group(1).split(", "), kind}))
        text = text[: imports.start(1)] + names + text[imports.end(1) :]
    if "from tf24migrate.model.findings import" not in text:
        text = text.replace(
            "from tf24migrate.rules",
            "from tf24migrate.model.findings import Severity\nfrom tf24migrate.rules",
            1,
        )
    rules = re.search(r"^RULES = \((?P<names>.*?)\)\n", text, re.MULTILINE | re.DOTALL)
    if rules is None:
        raise ScaffoldError(f"{renames} has no `RULES = (...)` tuple to list the new row in")
    listed_names = [name.strip() for name in rules.group("names").split(",") if name.strip()]
    listed = "RULES = (\n" + "".join(f"    {name},\n" for name in [*listed_names, rule.constant]) + ")\n"
    text = text[: rules.start()] + row_source(rule) + "\n\n" + listed + text[rules.end() :]
    renames.write_text(text, encoding="utf-8")


def fixture_sources(rule: NewRule) -> dict[str, str]:
    """The rule's first fixture cases: where it fires, and look-alikes it must leave alone."""
    before, _ = _example(rule)
    prefix = "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()\n"
    match rule.kind:
        case Kind.RENAME_METHOD | Kind.RENAME_KEYWORD:
            negative = f"import mylib\n\nmylib.{before.removeprefix('strategy.')}  # an import that is not TensorFlow\n"
        case _:
            negative = f"import mylib as tf\n\nx = tf.{rule.old.removeprefix('tensorflow.')}()  # `tf` is not TensorFlow here\n"
    return {"positive.py": f"{prefix}{before}\n", "negative.py": negative}


def write_rule(root: Path, rule: NewRule) -> list[Path]:
    """Write the rule's source and fixtures under the checkout `root`; the paths written."""
    family = root / "transforms" / rule.family
    if not family.is_dir():
        raise ScaffoldError(f"{family} is not a folder: is {root} a clone of tf24migrate?")
    written = []
    if rule.kind is Kind.STRUCTURAL:
        module = family / f"{rule.name.replace('-', '_')}.py"
        if module.exists():
            raise ScaffoldError(f"{module} exists already")
        module.write_text(module_source(rule), encoding="utf-8")
        written.append(module)
    else:
        add_row(family / "renames.py", rule)
        written.append(family / "renames.py")
    folder = root / "fixtures" / f"{rule.code}-{rule.name}"
    folder.mkdir(parents=True, exist_ok=False)
    for name, text in fixture_sources(rule).items():
        (folder / name).write_text(text, encoding="utf-8")
        written.append(folder / name)
    return written
