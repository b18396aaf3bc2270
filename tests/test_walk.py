"""`walk` against LibCST's own traversal: same callbacks in the same order, same result."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import libcst as cst
import pytest

from tf24migrate.engine.walk import walk

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
SOURCES = sorted(FIXTURES.rglob("*.py")) + [
    STDLIB / name for name in ("argparse.py", "dataclasses.py", "typing.py", "asyncio/tasks.py")
]

# Node types the other sources may lack.
EVERY_KIND = """\
from . import a as b, c
from .m import *
import x.y as z
@deco(1)
async def f(p, /, q: int = 2, *args, r, **kw) -> "T":
    global g
    async with a as (b, c), d:
        async for i in j:
            await k
    nonlocal_free = lambda u, *v, w=1: u
    match p:
        case [1, *rest] | {"k": _, **others} if rest:
            pass
        case Point(x=0, y=y2) as pt:
            pass
    try:
        raise E from None
    except* ValueError as e:
        del e
    while (n := q) > 0:
        q -= 1
    else:
        yield from f"{x!r:>{width}} {y=}"
    return x[1:2, ::3], {**d, 1: 2}, {*s}, (yield), not a or b and c, a if b else c
class K(B, metaclass=M):
    x: int = 1
    assert x, "m"
print(*a, **b, sep="")
"""

EDITED = """\
import os
x = f(x, drop=1, keep=2)
def g(x, drop=3, *, k=4):
    pass
    dup(x)
class C:
    pass
if x:
    pass
else:
    y = [x for x in range(3) if x]
"""


class Recorder(cst.CSTTransformer):
    """Records every callback and edits the tree: renames `x`, drops `drop=` arguments and
    `pass` statements, doubles `dup(...)` statements."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, str]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", type(node).__name__))
        return not isinstance(node, cst.Decorator)  # a subtree left alone

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        self.events.append(("leave", type(original).__name__))
        if isinstance(updated, cst.Name) and updated.value == "x":
            return updated.with_changes(value="renamed")
        if isinstance(updated, (cst.Arg, cst.Param)) and _keyword(updated) == "drop":
            return cst.RemoveFromParent()
        if isinstance(updated, cst.Pass):
            return cst.RemoveFromParent()
        if m_dup(updated):
            return cst.FlattenSentinel([updated, updated])
        return updated


def _keyword(node: cst.Arg | cst.Param) -> str | None:
    name = node.keyword if isinstance(node, cst.Arg) else node.name
    return name.value if name is not None else None


def m_dup(node: cst.CSTNode) -> bool:
    return (
        isinstance(node, cst.SimpleStatementLine)
        and node.body
        and isinstance(node.body[0], cst.Expr)
        and isinstance(node.body[0].value, cst.Call)
        and isinstance(node.body[0].value.func, cst.Name)
        and node.body[0].value.func.value == "dup"
    )


def both(source: str) -> tuple[Recorder, cst.Module, Recorder, cst.Module]:
    module = cst.parse_module(source)
    theirs, ours = Recorder(), Recorder()
    return theirs, module.visit(theirs), ours, walk(module, ours)


@pytest.mark.parametrize(
    "path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES if FIXTURES in p.parents else STDLIB))
)
def test_same_callbacks_and_result_as_libcst(path: Path) -> None:
    theirs, their_module, ours, our_module = both(path.read_text(encoding="utf-8"))
    assert ours.events == theirs.events
    assert our_module.code == their_module.code


def test_every_kind_of_node_is_visited_as_by_libcst() -> None:
    theirs, their_module, ours, our_module = both(EVERY_KIND)
    assert ours.events == theirs.events
    assert our_module.code == their_module.code
    assert {"MatchOr", "FormattedStringExpression", "NamedExpr", "Lambda"} <= {t for _, t in ours.events}


def test_edits_removals_and_flattening_come_out_as_with_libcst() -> None:
    theirs, their_module, ours, our_module = both(EDITED)
    assert our_module.code == their_module.code
    assert "drop" not in our_module.code
    assert our_module.code.count("pass") == 2  # blocks left empty get theirs back, as with LibCST
    assert our_module.code.count("dup(renamed)") == 2
    assert ours.events == theirs.events


def test_an_unchanged_subtree_comes_back_as_the_same_object() -> None:
    module = cst.parse_module("a = 1\nb = x\n")
    result = walk(module, Recorder())
    assert result is not module
    assert result.body[0] is module.body[0]
    assert result.body[1] is not module.body[1]
    assert walk(module, cst.CSTTransformer()) is module


def test_inert_subtrees_are_not_visited() -> None:
    module = cst.parse_module("f(a, b)\n")
    recorder = Recorder()
    walk(module, recorder, inert={cst.Arg})
    assert ("visit", "Arg") not in recorder.events
    assert ("visit", "Call") in recorder.events


def test_removing_a_required_child_is_an_error_as_with_libcst() -> None:
    class RemoveNames(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name):
            return cst.RemoveFromParent()

    module = cst.parse_module("a.b\n")
    with pytest.raises(TypeError):
        module.visit(RemoveNames())
    with pytest.raises(TypeError):
        walk(module, RemoveNames())
