"""`StatementMap` places top-level statements exactly: spliced output and spans agree with
generating the whole module."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import libcst as cst
import pytest

from tf24migrate.engine.outside_edits import first_line_changed_outside
from tf24migrate.engine.positions import StatementMap, module_code, node_spans

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
STDLIB = Path(sysconfig.get_paths()["stdlib"])

TRICKY = {
    "comments everywhere": (
        "#!/usr/bin/env python\n# header\n\n'''doc'''\nimport os  # trailing\n\n\n"
        "# before f\n@deco\n\n# between decorator and def\n@other(1,\n       2)\ndef f():\n"
        "    x = 1\n    # indented, after the block\n# at column 0\n\n  # odd indentation\n"
        "class C:\n    pass\n\n# footer\n\n"
    ),
    "semicolons": "a = 1; b = 2\nif a: b = 3; c = 4\nx = (\n    1,\n)\n",
    "CRLF": "import os\r\n\r\n# c\r\ndef f():\r\n    return 1\r\n",
    "a lone CR": "a = 1\n# c\rb = 2\n",
    "tabs and form feeds": "if x:\n\ty = 1\n\x0c\ndef g():\n\treturn 2\n",
    "multi-line strings": 's = """\nline\n"""\nt = f(\n    """\n    x\n    """,\n)\n',
    "nested blocks end the file": "class A:\n    def f(self):\n        if x:\n            pass\n",
}
SOURCES = {
    **TRICKY,
    **{str(p.relative_to(FIXTURES)): p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("*.py"))},
    **{
        name: (STDLIB / name).read_text(encoding="utf-8")
        for name in ("argparse.py", "typing.py", "inspect.py")
    },
}


def statement_map(source: str) -> StatementMap:
    module = cst.parse_module(source)
    mapped = StatementMap.build(module, ast.parse(source), source)
    assert mapped is not None
    return mapped


@pytest.mark.parametrize("name", SOURCES)
def test_spliced_code_is_the_generated_code(name: str) -> None:
    source = SOURCES[name]
    mapped = statement_map(source)
    module = mapped.module
    assert mapped.code(module) == (source, [], [])
    # Every other statement "changed" (a copy is generated, the rest is copied from the source).
    for parity in (0, 1):
        body = [s.deep_clone() if i % 2 == parity else s for i, s in enumerate(module.body)]
        new = module.with_changes(body=body)
        code, generated, edited = mapped.code(new)
        assert code == source
        assert len(generated) == len(body[parity::2]) == len(edited) // 2
        assert all(piece in source for piece in generated)
        assert first_line_changed_outside(source, code, edited) is None
    # Statements removed and inserted.
    extra = cst.parse_statement("import added\n")
    new = module.with_changes(body=[extra, *module.body[1:], extra])
    code, generated, edited = mapped.code(new)
    assert code == module_code(new)
    assert first_line_changed_outside(source, code, edited) is None
    assert generated == [f"import added{module.default_newline}"] * 2


@pytest.mark.parametrize("name", SOURCES)
def test_spans_are_the_whole_module_spans(name: str) -> None:
    mapped = statement_map(SOURCES[name])
    wanted: dict[cst.CSTNode, cst.CSTNode | None] = {}
    for statement in mapped.module.body:
        stack = [statement]
        while stack and len(wanted) < 400:
            node = stack.pop()
            if isinstance(node, (cst.Name, cst.Call, cst.Attribute, cst.SimpleString, cst.BaseStatement)):
                wanted[node] = statement
            stack.extend(node.children)
    assert wanted
    expected = node_spans(mapped.module, list(wanted))
    assert mapped.spans(wanted) == expected
    # A node whose statement is not known is placed from the module start.
    some = list(wanted)[:3]
    assert mapped.spans(dict.fromkeys(some)) == {node: expected[node] for node in some}
    # Every node of a statement at once, as the rules ask for one after another.
    for node, statement in wanted.items():
        every = mapped.every_span(statement)
        assert every is not None and every[node] == expected[node]
    assert mapped.every_span(cst.parse_statement("import elsewhere\n")) is None


@pytest.mark.parametrize(
    "source",
    ["x = 1", "x = \\\n  1\n\\\ny = 2\n", ""],
    ids=["no final newline", "a line holding only a continuation", "empty"],
)
def test_sources_it_cannot_place_are_left_to_whole_module_generation(source: str) -> None:
    assert StatementMap.build(cst.parse_module(source), ast.parse(source), source) is None
