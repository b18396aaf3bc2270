"""LibCST's parse of a source, and what the user is told when a source does not parse: Python's
own message and place (its parser is the best at both), a hint when the syntax is that of a newer
Python than the one running, and nesting too deep for LibCST (`nesting`)."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Sequence

import libcst as cst

from tf24migrate.engine.nesting import NESTING_LIMIT
from tf24migrate.model.errors import SourceSyntaxError
from tf24migrate.model.findings import MigrationResult
from tf24migrate.rules.text import python_chunks

TOO_DEEP = (
    f"cannot parse: nesting too deep (more than {NESTING_LIMIT} levels): split the expression into "
    "smaller ones to migrate this file"
)
# The characters of one statement holding a trigger that LibCST is given at most (its own lines:
# `pruning.StatementPlan.largest_interesting`): LibCST takes about 1,900 times a statement's size to
# parse it (a 3 MB call of a million arguments, 5.8 GB), so at most about 500 MB for this one. The
# largest such statement of the public corpora (the Model Garden 2.2-2.4, TF Agents, TFP, Keras
# 2.15, TensorFlow 2.15's sources) is 14,631 characters (a docstring in Keras): 18 times less.
MAX_STATEMENT = 256 * 1024


def statement_too_large(line: int, size: int) -> str:
    """What the user is told of a statement over `MAX_STATEMENT` (as `TOO_DEEP`: the file fails)."""
    return (
        f"cannot parse: the statement at line {line} is {size:,} characters long, over the limit of "
        f"{MAX_STATEMENT:,} given to LibCST at once (it takes about 2,000 times a statement's size in "
        "memory): split the statement into smaller ones, or exclude the file (--extend-exclude), "
        "to migrate the rest"
    )


TOO_LONG_TO_MIGRATE = (
    "skipped: an expression chains too many parts for LibCST (such as hundreds of adjacent string "
    "literals or `+` terms); the file was left unchanged: split that expression to migrate it"
)
# Statements of Python 3.12's syntax (PEP 695) that older parsers call invalid; f-strings of 3.12
# (PEP 701) get `f-string: ...` messages there.
_NEWER_SYNTAX = re.compile(
    r"\s*(?:type\s+\w+\s*(?:\[.*\])?\s*=|(?:async\s+)?def\s+\w+\s*\[|class\s+\w+\s*\[)"
)


def parse(source: str, path: str | None = None) -> cst.Module:
    """LibCST's module of a source that Python's parser accepts (and whose nesting is bounded)."""
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        raise SourceSyntaxError(
            f"cannot parse: {error.message}", (path, error.raw_line, error.raw_column + 1, None)
        ) from None
    except RecursionError:
        raise SourceSyntaxError(TOO_DEEP, (path, 1, 1, None)) from None


def python_syntax_error(source: str, path: str | None) -> SourceSyntaxError:
    """Why Python's own parser rejects `source` (its messages are the best worded and placed)."""
    try:
        for _ in python_chunks(source):
            pass
    except SyntaxError as error:
        line = source.splitlines()[error.lineno - 1] if error.lineno else ""
        newer = (
            f" (the syntax of a newer Python than {sys.version_info[0]}.{sys.version_info[1]}: run "
            "tf24migrate under that Python)"
            if _NEWER_SYNTAX.match(line) or error.msg.startswith("f-string")
            else ""
        )
        return SourceSyntaxError(
            f"cannot parse: {error.msg}{newer}", (path, error.lineno, error.offset, None)
        )
    except UnicodeEncodeError as error:  # a lone surrogate: no bytes to give Python's parser
        return _lone_surrogate(source, path, error)
    except (ValueError, RecursionError):
        pass
    return SourceSyntaxError(TOO_DEEP, (path, 1, 1, None))


def _lone_surrogate(source: str, path: str | None, error: UnicodeEncodeError) -> SourceSyntaxError:
    """What the user is told of a source that holds a lone surrogate (a file in a codec that
    decodes one, such as `unicode_escape`, or a text given to the library): where, and what to do."""
    found = _SURROGATE.search(source)
    offset = found.start() if found else 0
    line = source.count("\n", 0, offset) + 1
    column = offset - (source.rfind("\n", 0, offset) + 1) + 1
    character = found.group() if found else error.object[error.start : error.start + 1]
    return SourceSyntaxError(
        f"cannot parse: a lone surrogate (U+{ord(character):04X}), which Python source cannot hold: "
        "remove it, or write it as an escape in a string literal",
        (path, line, column, None),
    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def chains_too_long_are_syntax_errors(run: Callable[..., MigrationResult]) -> Callable[..., MigrationResult]:
    """`run` (`run_rules`), where a source whose expressions chain too long for LibCST's recursive
    passes (hundreds of adjacent string literals, which Python's tree holds as one node) is a
    `SourceSyntaxError` saying so."""

    @functools.wraps(run)
    def checked(source: str, rules: Sequence, *, path: str | None = None, **options) -> MigrationResult:
        try:
            return run(source, rules, path=path, **options)
        except RecursionError:
            raise SourceSyntaxError(TOO_LONG_TO_MIGRATE, (path, None, None, None)) from None

    return checked
