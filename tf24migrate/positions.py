"""Source positions for the few nodes that findings point at.

LibCST's `PositionProvider` records a position for every node of the module, which costs about
twice the parse itself. Findings need positions for a handful of nodes, so this module runs the
code generator once with a state that keeps only character offsets, records them only for the
nodes asked for, and turns them into lines and columns at the end.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState

_NO_RECORD = contextlib.nullcontext()
_NEWLINE = re.compile(r"\r\n?|\n")


@dataclass(frozen=True)
class Span:
    line: int  # 1-based
    column: int  # 1-based, in characters
    end_line: int
    end_column: int


class _AllFound(Exception):
    """Every node asked for has its span: code generation can stop."""


@dataclass
class _OffsetState(CodegenState):
    targets: Collection[int] = ()
    offset: int = 0
    starts: list[int] = field(default_factory=list)
    found: dict[int, tuple[int, int]] = field(default_factory=dict)
    finished: int = 0

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.targets:
            self.starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.targets:
            start = self.starts.pop()
            self.found.setdefault(id(node), (start, self.offset))
            self.finished += 1
            if self.finished == len(self.targets):
                raise _AllFound  # the rest of the module is not needed

    def record_syntactic_position(self, node: cst.CSTNode, **_: object):  # type: ignore[override]
        if id(node) not in self.targets:
            return _NO_RECORD
        return self._record(node)

    @contextlib.contextmanager
    def _record(self, node: cst.CSTNode) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            # The syntactic span (without leading whitespace) wins over the whole node's span.
            self.found[id(node)] = (start, self.offset)


@dataclass
class _PlainState(CodegenState):
    def record_syntactic_position(self, node: cst.CSTNode, **_: object):  # type: ignore[override]
        return _NO_RECORD


def module_code(module: cst.Module) -> str:
    """`module.code`, the same text, without the context manager LibCST's code generator makes
    for every node (a third of its time)."""
    state = _PlainState(default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return "".join(state.tokens)


def node_spans(module: cst.Module, nodes: Collection[cst.CSTNode]) -> dict[int, Span]:
    """`{id(node): Span}` for each of `nodes`, which must belong to `module`."""
    if not nodes:
        return {}
    state = _OffsetState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        targets={id(n) for n in nodes},
    )
    with contextlib.suppress(_AllFound):
        module._codegen(state)
    code = "".join(state.tokens)
    line_starts = [0] + [match.end() for match in _NEWLINE.finditer(code)]

    def to_line_col(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(line_starts, offset)
        return line, offset - line_starts[line - 1] + 1

    spans = {}
    for key, (start, end) in state.found.items():
        line, column = to_line_col(start)
        end_line, end_column = to_line_col(end)
        spans[key] = Span(line, column, end_line, end_column)
    return spans
