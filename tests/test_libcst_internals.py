"""The one private LibCST API the engine uses, and the bound that protects it.

`tf24migrate.engine.positions` subclasses `libcst._nodes.internal.CodegenState` and calls
`CSTNode._codegen` to place a few nodes without `PositionProvider`, and `rules.calls.code_for` to
generate a node's code without a context manager per node. These tests fail when a LibCST release
changes what that relies on; `test_positions.py` checks the spans themselves against LibCST's own
`PositionProvider` and code generation.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from importlib.metadata import version
from pathlib import Path

import libcst as cst
import tomllib
from libcst._nodes.internal import CodegenState

from tf24migrate.engine.positions import StatementMap, module_code, node_spans
from tf24migrate.rules.calls import code_for

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _libcst_requirement() -> str:
    dependencies = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    return next(d for d in dependencies if d.startswith("libcst"))


def test_libcst_has_an_upper_bound_and_the_installed_version_is_within_it():
    requirement = _libcst_requirement()
    upper = re.search(r"<\s*([\d.]+)", requirement)
    assert upper, f"{requirement!r}: a private API is used, so LibCST needs an upper bound"
    installed = tuple(int(part) for part in version("libcst").split(".")[:2])
    assert installed < tuple(int(part) for part in upper.group(1).split(".")[:2])


def test_codegen_state_has_what_the_offset_state_overrides_and_reads():
    fields = {field.name for field in dataclasses.fields(CodegenState)}
    assert {"default_indent", "default_newline", "indent_tokens", "tokens"} <= fields
    for method in (
        "add_indent_tokens",
        "add_token",
        "before_codegen",
        "after_codegen",
        "record_syntactic_position",
    ):
        assert callable(getattr(CodegenState, method)), method
    assert list(inspect.signature(cst.CSTNode._codegen).parameters)[:2] == ["self", "state"]


def test_code_and_spans_through_the_private_codegen_match_libcst():
    source = "import tensorflow as tf\n\n\ndef f(x):\n    return tf.add(x,  1)  # one\n"
    module = cst.parse_module(source)
    assert module_code(module) == module.code == source
    call = module.body[1].body.body[0].body[0].value
    span = node_spans(module, [call])[call]
    assert (span.line, span.column, span.end_line, span.end_column) == (5, 12, 5, 25)
    statements = StatementMap.build(module, ast.parse(source), source)
    assert statements.spans({call: module.body[1]})[call] == span


def test_a_nodes_code_through_the_private_codegen_is_libcsts():
    source = (
        "class A:\n    def f(self, x):\n        if x:  # why\n            return tf.add(\n"
        "                x, 1)\n        return [y for y in x]\n"
    )
    module = cst.parse_module(source)
    nodes: list[cst.CSTNode] = []

    class Every(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nodes.append(node)
            return True

    module.visit(Every())
    assert len(nodes) > 50
    for node in nodes:
        assert code_for(node) == cst.Module([]).code_for_node(node)
