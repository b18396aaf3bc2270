"""From source text to migrated source text and findings. Never touches files, never prints.

The steps: a text prefilter (rules whose trigger strings do not occur are not run, and a file
with none is not parsed); TensorFlow 1 files get one note and no rule (`tf1_code`); Python's `ast` lists the statements and marks those no rule can touch
(`pruning`), which LibCST then does not even parse; one LibCST parse; one pass of
`MigrationTransformer` (`walk`); suppression comments; positions for the findings; the output,
where only the statements a rule changed are generated (`positions.StatementMap`), and a re-parse
of what was generated: code that does not parse is never returned; the rule that produced it (or
that failed) is named in a `RuleError`.

Before that pass, two stages that keep every line where it is (so every finding is at a line of
the source): rules that read text rather than the tree (`Rule.reads_text`: comments and
docstrings), and, in a source holding `>>>`, the doctest examples of its docstrings, migrated by
this same pass over each docstring's examples (`doctests`).
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import libcst as cst

from tf24migrate.doctests import migrate_doctests
from tf24migrate.errors import RuleError, SourceSyntaxError
from tf24migrate.findings import Finding, MigrationResult, Span
from tf24migrate.nesting import NESTING_LIMIT, too_deep
from tf24migrate.notes import without_notes
from tf24migrate.outside_edits import changed_lines
from tf24migrate.positions import StatementMap, module_code, node_spans
from tf24migrate.pruning import Sparse, StatementPlan, line_starts, parse_with_python
from tf24migrate.rules import Rule, RuleSelection
from tf24migrate.suppressions import is_suppressed, line_suppressions
from tf24migrate.target import DEFAULT_TARGET, Target, severity_for, target_of
from tf24migrate.tf1_code import tf1_evidence, tf1_note
from tf24migrate.transformer import MigrationTransformer, Report
from tf24migrate.walk import walk

_TOO_DEEP = (
    f"cannot parse: nesting too deep (more than {NESTING_LIMIT} levels): split the expression into "
    "smaller ones to migrate this file"
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
        raise SourceSyntaxError(_TOO_DEEP, (path, 1, 1, None)) from None


def _python_syntax_error(source: str, path: str | None) -> SourceSyntaxError:
    """Why Python's own parser rejects `source` (its messages are the best worded and placed)."""
    try:
        parse_with_python(source)
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
    except (ValueError, RecursionError):
        pass
    return SourceSyntaxError(_TOO_DEEP, (path, 1, 1, None))


def _check_parses(code: str) -> str | None:
    try:
        parse_with_python(code)
    except (SyntaxError, ValueError, RecursionError) as error:
        return str(error)
    return None


def triggered_rules(source: str, rules: Iterable[Rule]) -> list[Rule]:
    """The rules whose required strings all occur in `source`, and one of whose trigger strings
    does (the cheap text prefilter)."""
    present: dict[str, bool] = {}  # each required string is looked for once, most rules share one

    def has(required: str) -> bool:
        if required not in present:
            present[required] = required in source
        return present[required]

    return [
        rule
        for rule in rules
        if all(has(required) for required in rule.requires)
        and any(trigger in source for trigger in rule.triggers)
    ]


_MAX_PASSES = 4  # each pass only blocks more fixes; chains are short (a subclass, then its import)


@dataclass
class _Parsed:
    """A source as the transformer sees it: LibCST's module of it, or of its `sparse` text (the
    statements that cannot matter left out), the pruning plan, and where statements start."""

    module: cst.Module
    plan: StatementPlan | None = None
    statements: StatementMap | None = None
    sparse: Sparse | None = None

    @classmethod
    def of(cls, source: str, rules: Sequence[Rule], path: str | None) -> _Parsed:
        plan = StatementPlan.build(source, [t for r in rules for t in r.triggers])
        if plan is None:  # Python's parser rejects it: so would LibCST, or it would crash
            raise _python_syntax_error(source, path)
        deep = too_deep(plan.tree, line_starts(source))
        if deep is not None:
            raise SourceSyntaxError(_TOO_DEEP, (path, deep, 1, None))
        sparse = plan.sparse(source)
        module = None
        if sparse is not None:
            try:
                module = cst.parse_module(sparse.text)
            except (cst.ParserSyntaxError, RecursionError):
                sparse = None  # parse the whole source, for its own error (if any)
        if sparse is None:
            plan.drop_markers()
            module = parse(source, path)
        if sparse is None:
            return cls(module, plan, StatementMap.build(module, plan.tree, source), sparse)
        statements = StatementMap.build(module, plan.tree, sparse.text, sparse.sparse_line, sparse.sizes)
        return cls(module, plan, statements, sparse)

    def whole(self, source: str, path: str | None) -> _Parsed:
        """The same source parsed whole, without a plan."""
        if self.sparse is None:
            return _Parsed(self.module, statements=self.statements)
        assert self.plan is not None
        module = parse(source, path)
        return _Parsed(module, statements=StatementMap.build(module, self.plan.tree, source))

    def transform(self, source, rules, unsafe_fixes, excluded=(), declined=(), target=DEFAULT_TARGET):
        """The rules applied: (new module, reports), or None if the plan went astray.

        A pass that finds fixes which are only right together with others that were not applied
        (`linked`) blocks them, and the rules run again without them."""
        blocked: dict[object, str] = {}
        for _ in range(_MAX_PASSES):
            if self.plan is not None:
                self.plan.reset()
            transformer = MigrationTransformer(
                rules,
                source=source,
                unsafe_fixes=unsafe_fixes,
                excluded=excluded,
                declined=declined,
                plan=self.plan,
                statements=self.statements,
                target=target,
                blocked=blocked,
            )
            new_module = walk(self.module, transformer, transformer.inert)
            if self.plan is not None and not self.plan.consistent:
                return None
            if not transformer.newly_blocked:
                break
            blocked = {**blocked, **transformer.newly_blocked}
        return new_module, transformer.reports

    def spans(self, reports: Sequence[Report]) -> dict[int, Span]:
        """Where each report's node is, in the original source's lines."""
        if self.statements is not None:
            spans = self.statements.spans({id(r.node): (r.node, r.statement) for r in reports})
        else:
            spans = node_spans(self.module, [r.node for r in reports])
        if self.sparse is not None:
            line = self.sparse.original_line
            spans = {
                k: dataclasses.replace(s, line=line(s.line), end_line=line(s.end_line))
                for k, s in spans.items()
            }
        return spans

    def code(self, new_module: cst.Module) -> tuple[str, list[str], tuple[tuple[int, int], ...]]:
        """The code of `new_module`, the parts of it that were generated, and the (first, last)
        lines of the source they replace."""
        edited = None
        if self.statements is not None:
            code, generated, edited = self.statements.code(new_module)
        else:
            code = module_code(new_module)
            generated = [code]
        if edited is None:
            return self._restored(code), [self._restored(piece) for piece in generated], _ALL_LINES
        if self.sparse is not None:
            line = self.sparse.original_line  # a range ends before the next line of the sparse text
            edited = [(line(first), line(last + 1) - 1) for first, last in edited]
        return self._restored(code), [self._restored(piece) for piece in generated], tuple(edited)

    def _restored(self, code: str) -> str:
        return self.sparse.restore(code) if self.sparse is not None else code


_ALL_LINES = ((1, sys.maxsize),)


def _finding(report: Report, span: Span, path: str | None, target: Target) -> Finding:
    rule = report.rule
    return Finding(
        code=report.rule.code,
        name=report.rule.name,
        line=span.line,
        column=span.column,
        end_line=span.end_line,
        end_column=span.end_column,
        message=report.message,
        severity=severity_for(rule, target),
        fix=report.fix,
        applied=report.applied,
        path=path,
        new_since=rule.new_since,
        old_removed=rule.old_removed,
        changed_in=rule.changed_in,
    )


def run_rules(
    source: str,
    rules: Sequence[Rule],
    *,
    path: str | None = None,
    unsafe_fixes: bool = False,
    declined: Collection[Finding] = (),
) -> MigrationResult:
    """Apply `rules` to `source`. Raises `SourceSyntaxError` or `RuleError`. The fixes of the
    findings in `declined` (found by code, line and column) are not applied, only reported. The
    target TensorFlow is the one `rules` carries (a `RuleSelection`'s), else the default."""
    if source.startswith(_BOM):  # Python's parser rejects it in a text; LibCST would drop it
        result = run_rules(source[1:], rules, path=path, unsafe_fixes=unsafe_fixes, declined=declined)
        return dataclasses.replace(result, source=source, code=_BOM + result.code)  # the same lines
    target = getattr(rules, "target", None) or DEFAULT_TARGET
    active = triggered_rules(source, rules)
    if not active:
        return MigrationResult(source=source, code=source)
    tf1 = tf1_evidence(source)
    if tf1 is not None:  # TF 1 code: rewrites would break it, rules do not run (see `tf1_code`)
        return MigrationResult(source=source, code=source, findings=(tf1_note(tf1, path),))
    text_rules = [rule for rule in active if rule.reads_text]
    tree_rules = [rule for rule in active if not rule.reads_text]
    code, findings, edited = source, [], ()
    suppressions = line_suppressions(source)

    def suppressed(finding: Finding) -> bool:
        span = Span(finding.line, finding.column, finding.end_line, finding.end_column)
        return bool(suppressions) and is_suppressed(span, finding.code, suppressions)

    # The stages that keep every line where it is come first, so all findings are at source lines.
    for rule in text_rules:  # comments and docstrings (`Rule.reads_text`)
        before = code
        code, found = rule.scan_text(
            code,
            path=path,
            unsafe_fixes=unsafe_fixes,
            declined=declined,
            suppressed=suppressed,
            target=target,
        )
        findings += found
        edited += changed_lines(before, code) if code != before else ()
    if tree_rules and ">>>" in code:

        def run_examples(text: str, *, path, unsafe_fixes, declined=()) -> MigrationResult:
            rules_here = triggered_rules(text, tree_rules)
            if not rules_here or tf1_evidence(text) is not None:
                return MigrationResult(source=text, code=text)
            return _run_tree(text, rules_here, path, unsafe_fixes, declined, target)

        before = code
        code, found = migrate_doctests(
            code, run_examples, path=path, unsafe_fixes=unsafe_fixes, declined=declined, suppressed=suppressed
        )
        findings += found
        edited += changed_lines(before, code) if code != before else ()
    if tree_rules:  # the stages before kept every line where it was: their lines are the source's
        done = _run_tree(code, tree_rules, path, unsafe_fixes, declined, target)
        code, findings, edited = done.code, [*findings, *done.findings], edited + (done.edited or ())
    findings.sort(key=lambda f: (f.line, f.column, f.code))
    return MigrationResult(source=source, code=code, findings=tuple(findings), edited=edited)


def _run_tree(
    source: str,
    active: Sequence[Rule],
    path: str | None,
    unsafe_fixes: bool,
    declined: Collection[Finding],
    target: Target,
) -> MigrationResult:
    """The LibCST pass of `active` (rules whose triggers occur in `source`) over `source`."""
    parsed = _Parsed.of(source, active, path)
    done = parsed.transform(source, active, unsafe_fixes, target=target)
    if done is None:  # the plan and LibCST disagreed: no pruning, then
        parsed = parsed.whole(source, path)
        done = parsed.transform(source, active, unsafe_fixes, target=target)
    assert done is not None
    new_module, reports = done
    spans = parsed.spans(reports)
    suppressions = line_suppressions(source)
    excluded = {
        (r.rule.code, id(r.node))
        for r in reports
        if suppressions and is_suppressed(spans[id(r.node)], r.rule.code, suppressions)
    }
    declined_at = {(f.code, f.line, f.column) for f in declined}
    refused = {
        (r.rule.code, id(r.node))
        for r in reports
        if (r.rule.code, spans[id(r.node)].line, spans[id(r.node)].column) in declined_at
    }
    if excluded or refused:
        done = parsed.transform(source, active, unsafe_fixes, excluded, refused, target)
        assert done is not None  # the same plan over the same module
        new_module, reports = done
    # Only generated code is checked: every other statement is the source's, which parsed; and
    # top-level statements parse independently of each other.
    code, generated, edited = parsed.code(new_module) if any(r.applied for r in reports) else (source, [], ())
    code = with_the_edges_of(source, code)
    if code != source:
        problem = next(filter(None, map(_check_parses, generated)), None)
        if problem is not None:
            raise RuleError(
                _culprits(source, active, unsafe_fixes, path, target),
                f"produced code that does not parse ({problem})",
            )
    findings = sorted(
        (_finding(r, spans[id(r.node)], path, target) for r in reports),
        key=lambda f: (f.line, f.column, f.code),
    )
    return MigrationResult(source=source, code=code, findings=tuple(findings), edited=edited)


# Statements of Python 3.12's syntax (PEP 695) that older parsers call invalid; f-strings of 3.12
# (PEP 701) get `f-string: ...` messages there.
_NEWER_SYNTAX = re.compile(
    r"\s*(?:type\s+\w+\s*(?:\[.*\])?\s*=|(?:async\s+)?def\s+\w+\s*\[|class\s+\w+\s*\[)"
)
_TRAILING_WHITESPACE = " \t\f\v\r\n"
_BOM = "\ufeff"


def with_the_edges_of(source: str, code: str) -> str:
    """`code` with the last bytes of `source` that LibCST's round trip loses put back: a final
    lone CR, blank lines before a last whitespace-only line (`parse_module("x=1\\n\\n   ").code ==
    "x=1\\n   "`). Fixes never edit the trailing whitespace of a module, so it is the source's."""
    if code == source:
        return code
    tail = source[len(source.rstrip(_TRAILING_WHITESPACE)) :]
    return code.rstrip(_TRAILING_WHITESPACE) + tail


def _culprits(
    source: str, rules: Sequence[Rule], unsafe_fixes: bool, path: str | None, target: Target
) -> list[str]:
    """The rules that, run alone over the whole source, produce code that does not parse."""
    whole = _Parsed(parse(source, path))
    culprits = []
    for rule in rules:
        done = whole.transform(source, [rule], unsafe_fixes, target=target)
        if done is not None and _check_parses(module_code(done[0])) is not None:
            culprits.append(rule.code)
    return culprits or [rule.code for rule in rules]


def migrate_source(
    source: str,
    *,
    path: str | None = None,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    unsafe_fixes: bool = False,
    target_version: str | None = None,
) -> MigrationResult:
    """Migrate one Python source text to the TensorFlow 2.4 API.

    `select` / `ignore` take codes (`"TF24101"`), names (`"experimental-run-v2"`), prefixes
    (`"TF241"`) or `"all"`, as on the command line; the default is the default rules.
    `target_version` (`"2.3"`) is the oldest TensorFlow the code must still run on: a fix whose new
    spelling is newer is reported, not applied (default: 2.4, every fix). `path` is only used in
    findings and error messages. Raises `TypeError` when `source` is not a `str` (bytes: decode
    them first), `SyntaxError` (a `SourceSyntaxError`) when `source` does not parse, `TargetVersionError` (a `ValueError`) when `target_version` is not `X.Y`.

    >>> result = migrate_source("import tensorflow as tf\\ns = tf.distribute.MirroredStrategy()\\n"
    ...                         "s.experimental_run_v2(step)\\n")
    >>> print(result.code, end="")
    import tensorflow as tf
    s = tf.distribute.MirroredStrategy()
    s.run(step)
    >>> [(f.code, f.line, f.applied) for f in result.findings]
    [('TF24101', 3, True)]
    """
    if not isinstance(source, str):
        hint = (
            ": decode it first (`tf24migrate.files.decode_source(data).text` reads the encoding as Python does)"
            if isinstance(source, (bytes, bytearray))
            else ": join the lines first (`''.join(lines)`)"
            if isinstance(source, (list, tuple))
            else ""
        )
        raise TypeError(f"migrate_source takes the source text as a str, not {type(source).__name__}{hint}")
    rules = RuleSelection(select, ignore, target_of(target_version, "the target_version argument"))
    rules.check()
    result = run_rules(source, rules, path=path, unsafe_fixes=unsafe_fixes)
    hidden = rules.hidden_notes
    return dataclasses.replace(result, findings=without_notes(result.findings, hidden)) if hidden else result
