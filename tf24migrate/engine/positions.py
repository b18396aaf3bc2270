"""Source positions for the few nodes that findings point at, and the output text.

LibCST's `PositionProvider` records a position for every node of the module, which costs about
twice the parse itself, and `Module.code` generates the whole module again. Findings need
positions for a handful of nodes and a migration changes a few statements, so `StatementMap`
places each top-level statement in the source (from Python's `ast`) and then generates only the
statements that hold a finding (with a state that keeps character offsets, recorded only for the
nodes asked for) or that a rule changed; the text of every other statement is the source's own.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import re
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState

from tf24migrate.engine.form_feeds import with_form_feeds
from tf24migrate.model.findings import Span
from tf24migrate.rules.text import first_line, line_starts

_NO_RECORD = contextlib.nullcontext()


class _AllFound(Exception):
    """Every node asked for has its span: code generation can stop."""


class _Every(Collection[cst.CSTNode]):
    """Every node, as the targets of a code generation that records where each one is."""

    def __contains__(self, node: object) -> bool:
        return True

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(())

    def __len__(self) -> int:
        return sys.maxsize  # never all found: the whole statement is generated


@dataclass
class _OffsetState(CodegenState):
    targets: Collection[cst.CSTNode] = ()
    offset: int = 0
    starts: list[int] = field(default_factory=list)
    found: dict[cst.CSTNode, tuple[int, int]] = field(default_factory=dict)

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.targets:
            self.starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if node in self.targets:
            start = self.starts.pop()
            self.found.setdefault(node, (start, self.offset))
            if len(self.found) == len(self.targets) and not self.starts:
                raise _AllFound  # the rest of the module is not needed

    def record_syntactic_position(self, node: cst.CSTNode, **_: object):
        if node not in self.targets:
            return _NO_RECORD
        return self._record(node)

    @contextlib.contextmanager
    def _record(self, node: cst.CSTNode) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            # The syntactic span (without leading whitespace) wins over the whole node's span.
            self.found[node] = (start, self.offset)


def module_code(module: cst.Module) -> str:
    """`module.code`, without the per-node context managers of LibCST's own code generator."""
    state = _OffsetState(default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return "".join(state.tokens)


def node_spans(module: cst.Module, nodes: Collection[cst.CSTNode]) -> dict[cst.CSTNode, Span]:
    """`{node: Span}` for each of `nodes`, which must belong to `module`."""
    if not nodes:
        return {}
    state = _OffsetState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        targets=set(nodes),
    )
    with contextlib.suppress(_AllFound):
        module._codegen(state)
    return _spans(state.found, line_starts("".join(state.tokens)))


def _spans(
    found: Mapping[cst.CSTNode, tuple[int, int]], lines: Sequence[int], base: int = 0
) -> dict[cst.CSTNode, Span]:
    """Spans from `{key: (start offset, end offset)}`, offsets counted from `base` in a text whose
    lines start at `lines`."""

    def line_column(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(lines, base + offset)
        return line, base + offset - lines[line - 1] + 1

    return {key: Span(*line_column(start), *line_column(end)) for key, (start, end) in found.items()}


# A line holding only a line continuation: Python's `ast` and LibCST may place a statement after
# one differently, so such a source is not mapped.
_CONTINUATION_ONLY = re.compile(r"^[ \t\f]*\\\r?$", re.MULTILINE)


def _statements_in(statement: cst.BaseStatement, sizes: Mapping[str, int]) -> int:
    """How many `ast` statements a LibCST top-level statement is."""
    if type(statement) is not cst.SimpleStatementLine:
        return 1
    body = statement.body
    if len(body) == 1 and type(body[0]) is cst.Expr and type(body[0].value) is cst.Name:
        return sizes.get(body[0].value.value, 1)
    return len(body)


class StatementMap:
    """Where each top-level statement of a module starts in its source.

    A LibCST statement starts with its `leading_lines` (one source line each), then its first
    token, whose line Python's `ast` knows; statements tile the source between the module's header
    and footer. `build` returns None when that cannot be relied on, and the callers then generate
    the whole module.
    """

    def __init__(self, module: cst.Module, source: str, starts: list[int], lines: Sequence[int]) -> None:
        self.module = module
        self.source = source
        self._line_starts = lines  # offset of each source line, 0-based
        footer = len(source) if not module.footer else lines[len(lines) - 1 - len(module.footer)]
        ends = [*starts[1:], footer]
        self._span: dict[cst.CSTNode, tuple[int, int]] = {
            statement: (start, end) for statement, start, end in zip(module.body, starts, ends, strict=True)
        }
        self._end = dict(zip(starts, ends, strict=True))  # a statement's start -> its end
        self._header_end = starts[0]
        self._footer_start = footer
        self._every: tuple[cst.CSTNode, dict[cst.CSTNode, Span]] | None = None

    @classmethod
    def build(
        cls,
        module: cst.Module,
        tree: ast.Module,
        source: str,
        line_of: Callable[[int], int] | None = None,
        sizes: Mapping[str, int] | None = None,
    ) -> StatementMap | None:
        """The map of `module`, parsed from `source`; `tree` is Python's `ast` of `source`, or of
        an original whose line `n` is line `line_of(n)` of `source`, where a line holding only a
        name in `sizes` stands for that many statements (see `sparse.Sparse`)."""
        return cls.at_lines(module, [first_line(s) for s in tree.body], source, line_of, sizes)

    @classmethod
    def at_lines(
        cls,
        module: cst.Module,
        first_lines: Sequence[int],
        source: str,
        line_of: Callable[[int], int] | None = None,
        sizes: Mapping[str, int] | None = None,
    ) -> StatementMap | None:
        """`build`, from the first line of each top-level statement of the `ast` (decorators
        included) rather than from the `ast` itself."""
        if not module.body or not module.has_trailing_newline or _CONTINUATION_ONLY.search(source):
            return None
        lines = line_starts(source)
        starts: list[int] = []
        index = 0
        for statement in module.body:
            if index >= len(first_lines):
                return None
            line = first_lines[index]
            index += _statements_in(statement, sizes or {})
            if line_of is not None:
                line = line_of(line)
            line -= len(statement.leading_lines)
            if line < 1 or (starts and lines[line - 1] <= starts[-1]):
                return None
            starts.append(lines[line - 1])
        if index != len(first_lines) or len(module.footer) >= len(lines):
            return None
        return cls(module, source, starts, lines)

    def line(self, number: int) -> str:
        """The text of line `number` of the source, without its line end."""
        text = self.source[
            self._line_starts[number - 1] : self._line_starts[number]
            if number < len(self._line_starts)
            else None
        ]
        return text.rstrip("\r\n")

    def code(self, new: cst.Module) -> tuple[str, list[str], list[tuple[int, int]] | None]:
        """`new.code`, where `new` is this map's module after a transformer that returns an
        unchanged statement as the same object: those statements are copied from the source.
        Also returns the pieces that were generated (whole top-level statements, or the module),
        and the (first, last) source lines of the statements replaced (None: the whole module)."""
        module = self.module
        if (new.header, new.footer, new.default_indent, new.default_newline) != (
            module.header,
            module.footer,
            module.default_indent,
            module.default_newline,
        ) or not new.has_trailing_newline:
            code = module_code(new)
            return code, [code], None
        pieces = [self.source[: self._header_end]]
        generated = []
        edited = []  # replaced statements' lines, and (line, line - 1) where code was inserted
        line = lambda offset: bisect.bisect_right(self._line_starts, offset)  # noqa: E731
        cursor = self._header_end  # where the source's next statement starts
        state = _OffsetState(default_indent=new.default_indent, default_newline=new.default_newline)
        for statement in new.body:
            span = self._span.get(statement)
            if span is not None and span[0] >= cursor:  # the source's own, in its order
                pieces.append(self.source[span[0] : span[1]])
                cursor = span[1]
                continue
            if span is not None:  # moved: copied, and counted as replaced and inserted here
                pieces.append(self.source[span[0] : span[1]])
                edited.append((line(span[0]), line(span[1] - 1)))
            else:
                state.tokens.clear()
                statement._codegen(state)
                code = "".join(state.tokens)
                if cursor in self._end:  # it stands where the source's next statement was
                    code = with_form_feeds(self.source[cursor : self._end[cursor]], code)
                generated.append(code)
                pieces.append(code)
            edited.append((line(cursor), line(cursor) - 1))
        pieces.append(self.source[self._footer_start :])
        kept = set(new.body)
        edited += [
            (line(start), line(end - 1))
            for s in module.body
            if s not in kept
            for start, end in [self._span[s]]
        ]
        return "".join(pieces), generated, edited

    def every_span(self, statement: cst.CSTNode) -> dict[cst.CSTNode, Span] | None:
        """`{node: Span}` for every node of the top-level `statement` (None: not one of the
        module's), the last statement's kept: rules ask for one node of a statement after another
        (`ctx.source_line`), and each would have it generated anew."""
        if self._every is not None and self._every[0] is statement:
            return self._every[1]
        if statement not in self._span:
            return None
        state = _OffsetState(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            targets=_Every(),
        )
        statement._codegen(state)
        self._every = (statement, _spans(state.found, self._line_starts, base=self._span[statement][0]))
        return self._every[1]

    def span(self, node: cst.CSTNode, statement: cst.CSTNode | None) -> Span:
        """Where one node of the top-level `statement` (None: not known) is: from `every_span`
        where the statement is the module's (KeyError: the node is not in it)."""
        every = self.every_span(statement) if statement is not None else None
        return every[node] if every is not None else self.spans({node: statement})[node]

    def spans(self, nodes: Mapping[cst.CSTNode, cst.CSTNode | None]) -> dict[cst.CSTNode, Span]:
        """`{node: Span}` for `{node: its top-level statement}`; a node whose statement is unknown
        (None) is placed by generating the module up to it."""
        by_statement: dict[cst.CSTNode, list[cst.CSTNode]] = {}
        elsewhere: list[cst.CSTNode] = []
        for node, statement in nodes.items():
            if statement is not None and statement in self._span:
                by_statement.setdefault(statement, [statement]).append(node)
            else:
                elsewhere.append(node)
        spans = node_spans(self.module, elsewhere)
        for group in by_statement.values():
            statement, targets = group[0], group[1:]
            state = _OffsetState(
                default_indent=self.module.default_indent,
                default_newline=self.module.default_newline,
                targets=set(targets),
            )
            with contextlib.suppress(_AllFound):
                statement._codegen(state)
            spans.update(_spans(state.found, self._line_starts, base=self._span[statement][0]))
        return spans
