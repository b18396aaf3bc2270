"""From source text to migrated source text and findings. Never touches files, never prints.

`run_rules` runs the stages in this order, each a function or method below, in reading order:

1. prefilter: the rules whose `requires` and `triggers` occur (`catalogue.prefilter`); a file with
   none is not parsed. TensorFlow 1 files get one note and no rule (`tf1_code`).
2. text stages, which keep every line where it is (so every finding is at a line of the source):
   rules that read text rather than the tree (`Rule.reads_text`: comments and docstrings), then,
   in a source holding `>>>`, the doctest examples of its docstrings, migrated by the stages
   below run over each docstring's examples (`doctests`).
3. plan: Python's `ast` lists the statements and marks those no rule can touch (`pruning`),
   which LibCST then does not even parse (off with `TF24MIGRATE_OFF=pruning`, `model.tricks`);
   nesting too deep for LibCST is refused (`nesting`).
4. parse: one LibCST parse (`_Parsed.of`).
5. transform: one pass of the rules (`transformer.run_pass`, reporting through
   `context.FileContext`), where suppression comments and declined fixes are honoured; again
   while a pass blocks fixes that are only right together (`linked`).
6. positions of the findings (`positions.StatementMap`).
7. output: only the statements a fix changed are generated; the rest is the source's bytes.
8. verify: what was generated is parsed again; code that does not parse is never returned, and
   the rule that produced it (or that failed) is named in a `RuleError`.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import libcst as cst

from tf24migrate.catalogue.prefilter import (
    needs_public_imports,
    rules_that_could_fire,
    without_public_imports,
)
from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine.context import FileContext, Report
from tf24migrate.engine.doctests import TF_IMPORT, migrate_doctests
from tf24migrate.engine.form_feeds import with_form_feeds
from tf24migrate.engine.nesting import too_deep
from tf24migrate.engine.outside_edits import changed_lines
from tf24migrate.engine.positions import StatementMap, module_code, node_spans
from tf24migrate.engine.pruning import StatementPlan
from tf24migrate.engine.public_api import imports_public_tensorflow
from tf24migrate.engine.sparse import Sparse
from tf24migrate.engine.suppressions import is_suppressed, line_suppressions, with_unknown_suppressions
from tf24migrate.engine.syntax import (
    MAX_STATEMENT,
    TOO_DEEP,
    chains_too_long_are_syntax_errors,
    parse,
    python_syntax_error,
    statement_too_large,
)
from tf24migrate.engine.text_reports import TextReports
from tf24migrate.engine.tf1_code import tf1_evidence, tf1_note, with_older_support, with_tf1_support
from tf24migrate.engine.transformer import run_pass
from tf24migrate.model.errors import RuleError, SourceSyntaxError
from tf24migrate.model.findings import Finding, MigrationResult, Span
from tf24migrate.model.notes import without_notes
from tf24migrate.model.target import target_of
from tf24migrate.model.tricks import switched_off
from tf24migrate.rules.base import Rule
from tf24migrate.rules.text import first_line, line_starts, python_chunks, python_chunks_with_offsets

_PROMPTED = re.compile(r"(?:>>>|\.\.\.)(?: (.*)|$)", re.MULTILINE)  # what follows a doctest prompt
_MAX_PASSES = 4  # each pass only blocks more fixes; chains are short (a subclass, then its import)


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
            ": decode it first (`tf24migrate.run.files.decode_source(data).text` reads the encoding as Python does)"
            if isinstance(source, (bytes, bytearray))
            else ": join the lines first (`''.join(lines)`)"
            if isinstance(source, (list, tuple))
            else ""
        )
        raise TypeError(f"migrate_source takes the source text as a str, not {type(source).__name__}{hint}")
    from tf24migrate.model import arguments

    arguments.check_optional_str("migrate_source", "path", path)
    arguments.check_selectors("migrate_source", "select", select)
    arguments.check_selectors("migrate_source", "ignore", ignore)
    arguments.check_flag("migrate_source", "unsafe_fixes", unsafe_fixes)
    arguments.check_optional_str("migrate_source", "target_version", target_version)
    target = target_of(target_version, "the target_version argument")
    settings = Settings.selected(select, ignore, target=target, unsafe_fixes=unsafe_fixes)
    result = run_rules(source, settings, path=path)
    hidden = settings.hidden_notes
    return dataclasses.replace(result, findings=without_notes(result.findings, hidden)) if hidden else result


@chains_too_long_are_syntax_errors
def run_rules(source: str, settings: Settings, *, path: str | None = None) -> MigrationResult:
    """Apply the rules of `settings` to `source`. Raises `SourceSyntaxError` or `RuleError`. The
    fixes of the findings `settings` declines (found by code, line and column) are not applied,
    only reported. The notes `settings` hides are not left out here (the caller does it). A
    suppression comment naming no rule or note is reported (`suppressions`)."""
    return with_unknown_suppressions(_run_rules(source, settings, path=path), path)


def _run_rules(source: str, settings: Settings, *, path: str | None) -> MigrationResult:
    if source.startswith(_BOM):  # Python's parser rejects it in a text; LibCST would drop it
        result = _run_rules(source[1:], settings, path=path)
        return dataclasses.replace(result, source=source, code=_BOM + result.code)  # the same lines
    target, unsafe_fixes, declined = settings.target, settings.unsafe_fixes, settings.declined
    active = rules_that_could_fire(source, settings.rules, path=path)  # `own_sources` by the path
    main, in_examples = _imports_allow(source, active), _example_rules(source, active)
    if not main and not in_examples:
        return MigrationResult(source=source, code=source)
    tf1 = tf1_evidence(source)
    if tf1 is not None:  # TF 1 code: rewrites would break it, rules do not run (see `tf1_code`)
        return MigrationResult(source=source, code=source, findings=(tf1_note(tf1, path),))
    target = with_tf1_support(source, target)  # TF 2 code that still runs on TF 1 keeps doing so
    target = with_older_support(source, target)  # and so does code that still runs on TF 2.3
    if target is not settings.target:
        settings = dataclasses.replace(settings, target=target)
    text_rules = [rule for rule in active if rule.reads_text]
    code, findings = source, []
    edited: tuple[tuple[int, int], ...] = ()
    suppressions = line_suppressions(source)

    def suppressed(finding: Finding) -> bool:
        span = Span(finding.line, finding.column, finding.end_line, finding.end_column)
        return bool(suppressions) and is_suppressed(span, finding.code, suppressions)

    # The stages that keep every line where it is come first, so all findings are at source lines.
    for rule in text_rules:  # comments and docstrings (`Rule.reads_text`)
        before = code
        reports = TextReports(
            rule,
            path=path,
            target=target,
            unsafe_fixes=unsafe_fixes,
            declined=declined,
            suppressed=suppressed,
        )
        code = rule.scan_text(reports, code)
        findings += reports.findings
        edited += changed_lines(before, code) if code != before else ()
    if in_examples:

        def run_examples(text: str, settings: Settings, path: str | None) -> MigrationResult:
            rules_here = _imports_allow(text, rules_that_could_fire(text, in_examples))
            if not rules_here or tf1_evidence(text) is not None:
                return MigrationResult(source=text, code=text)
            return _run_tree(text, rules_here, path, settings)

        before = code
        code, found = migrate_doctests(code, run_examples, settings, path=path, suppressed=suppressed)
        findings += found
        edited += changed_lines(before, code) if code != before else ()
    tree_rules = [rule for rule in main if not rule.reads_text]
    if tree_rules:  # the stages before kept every line where it was: their lines are the source's
        done = _run_tree(code, tree_rules, path, settings)
        code, findings, edited = done.code, [*findings, *done.findings], edited + (done.edited or ())
    findings.sort(key=lambda f: (f.line, f.column, f.code))
    return MigrationResult(source=source, code=code, findings=tuple(findings), edited=edited)


def _imports_allow(source: str, rules: list[Rule]) -> list[Rule]:
    """`rules` less those that need an import of TensorFlow's public API when `source`'s code has
    none (`prefilter.without_public_imports`): the prefilter's pattern also finds an `import
    tensorflow as tf` in prose, Python's `ast` only the imports. The `ast` is the one the plan reuses."""
    if not any(map(needs_public_imports, rules)) or imports_public_tensorflow(source):
        return rules
    return without_public_imports(source, rules)


def _example_rules(source: str, rules: list[Rule]) -> list[Rule]:
    """The tree rules of `rules` that could fire in `source`'s doctest examples: whose needles occur
    in the text after its `>>> ` and `... ` prompts (a superset of the examples), with the `import
    tensorflow as tf` put before them when the file has one (`doctests`)."""
    tree_rules = [rule for rule in rules if not rule.reads_text]
    if not tree_rules or ">>>" not in source:
        return []
    text = "\n".join(match.group(1) or "" for match in _PROMPTED.finditer(source))
    if TF_IMPORT in source:
        text += "\n" + TF_IMPORT
    return rules_that_could_fire(text, tree_rules)


# 3-8. the LibCST stages


def _run_tree(source: str, active: Sequence[Rule], path: str | None, settings: Settings) -> MigrationResult:
    """The LibCST stages of `active` (rules whose triggers occur in `source`) over `source`."""
    target = settings.target
    # plan and parse
    parsed = _Parsed.of(source, active, path)
    # transform (suppression comments and declined fixes are honoured during the pass)
    done = parsed.transform(source, active, settings)
    if done is None:  # the plan and LibCST disagreed: no pruning, then
        parsed = parsed.whole(source, path)
        done = parsed.transform(source, active, settings)
    assert done is not None
    new_module, reports = done
    parsed.plan = None  # its columns (6 MB for a 5 MB module), held no longer while the code is made
    # positions
    spans = parsed.spans(reports)
    # output: only the statements a fix changed are generated
    code, generated, edited = (
        parsed.code(new_module, source) if any(r.applied for r in reports) else (source, [], ())
    )
    code = with_the_edges_of(source, code)
    # verify: only generated code is checked; every other statement is the source's, which
    # parsed, and top-level statements parse independently of each other (as do statements left
    # out of the sparse text, where their marker stands at their indentation)
    if code != source:
        problem = next(filter(None, map(_check_parses, generated)), None)
        if problem is not None:
            raise RuleError(
                _culprits(source, active, path, settings),
                f"produced code that does not parse ({problem})",
            )
    findings = sorted(
        (
            r.rule.finding(
                spans[r.node],
                r.message,
                target=target,
                fix=r.fix,
                applied=r.applied,
                path=path,
                evidence=r.evidence,
                note=r.note,
                versions=r.versions,
            )
            for r in reports
        ),
        key=lambda f: (f.line, f.column, f.code),
    )
    return MigrationResult(source=source, code=code, findings=tuple(findings), edited=edited)


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
        if switched_off("pruning"):  # `model.tricks`: every file parsed and walked whole
            return cls._unplanned(source, path)
        triggers = [t for rule in rules for t in rule.triggers]
        followed = [t for rule in rules for t in (rule.triggers if rule.follows is None else rule.follows)]
        plan = StatementPlan.build(source, triggers, followed)
        if plan is None:  # Python's parser rejects it: so would LibCST, or it would crash
            raise python_syntax_error(source, path)
        if plan.deep is not None:
            raise SourceSyntaxError(TOO_DEEP, (path, plan.deep, 1, None))
        line, size = plan.largest_interesting(source)
        if size > MAX_STATEMENT:  # LibCST's memory: about 1,900 times it
            raise SourceSyntaxError(statement_too_large(line, size), (path, line, 1, None))
        sparse = plan.sparse(source)
        module: cst.Module | None = None
        if sparse is not None:
            try:
                module = cst.parse_module(sparse.text)
            except (cst.ParserSyntaxError, RecursionError):
                sparse = None  # parse the whole source, for its own error (if any)
        if sparse is None or module is None:
            plan.drop_markers()
            module = parse(source, path)
            return cls(module, plan, StatementMap.at_lines(module, plan.top_lines, source), sparse)
        statements = StatementMap.at_lines(
            module, plan.top_lines, sparse.text, sparse.sparse_line, sparse.sizes
        )
        return cls(module, plan, statements, sparse)

    @classmethod
    def _unplanned(cls, source: str, path: str | None) -> _Parsed:
        """The whole source parsed and walked: Python's parse (its syntax errors, the nesting
        bound and where top-level statements start), then LibCST's of the whole text."""
        top: list[int] = []
        starts = line_starts(source)
        try:
            for before, tree in python_chunks_with_offsets(source):
                deep = too_deep(tree, starts, before)
                if deep is not None:
                    raise SourceSyntaxError(TOO_DEEP, (path, deep, 1, None))
                top += [before + first_line(s) for s in tree.body]
        except (SyntaxError, ValueError, RecursionError):
            raise python_syntax_error(source, path) from None
        module = parse(source, path)
        return cls(module, None, StatementMap.at_lines(module, top, source))

    def whole(self, source: str, path: str | None) -> _Parsed:
        """The same source parsed whole, without a plan."""
        if self.sparse is None:
            return _Parsed(self.module, statements=self.statements)
        assert self.plan is not None
        module = parse(source, path)
        return _Parsed(module, statements=StatementMap.at_lines(module, self.plan.top_lines, source))

    def transform(
        self, source: str, rules: Sequence[Rule], settings: Settings
    ) -> tuple[cst.Module, list[Report]] | None:
        """`rules` applied: (new module, reports), or None if the plan went astray. A finding
        on a line with a suppression comment is not reported; the fixes of the findings
        `settings` declines (by code, line, column) are not applied.

        A pass that finds fixes which are only right together with others that were not applied
        (`linked`) blocks them, and the rules run again without them."""
        blocked: dict[object, str] = {}
        suppressions = line_suppressions(source)
        for _ in range(_MAX_PASSES):
            if self.plan is not None:
                self.plan.reset()
            ctx = FileContext(
                source,
                settings,
                blocked=blocked,
                statements=self.statements,
                suppressions=suppressions,
                locate=self.locate,
            )
            new_module = run_pass(self.module, rules, ctx, self.plan)
            if self.plan is not None and not self.plan.consistent:
                return None
            if not ctx.newly_blocked:
                break
            blocked = {**blocked, **ctx.newly_blocked}
        return new_module, ctx.reports

    def locate(self, node: cst.CSTNode, statement: cst.CSTNode | None) -> Span:
        """Where one original node (in its top-level `statement`, if known) is in the source
        (KeyError: not in that statement)."""
        if self.statements is not None:
            return self._placed({node: self.statements.span(node, statement)})[node]
        return self._placed(self._spans({node: statement}))[node]

    def spans(self, reports: Sequence[Report]) -> dict[cst.CSTNode, Span]:
        """Where each report's node is, in the original source's lines."""
        return self._placed(self._spans({r.node: r.statement for r in reports}))

    def _spans(self, nodes: dict[cst.CSTNode, cst.CSTNode | None]) -> dict[cst.CSTNode, Span]:
        if self.statements is not None:
            return self.statements.spans(nodes)
        return node_spans(self.module, list(nodes))

    def _placed(self, spans: dict[cst.CSTNode, Span]) -> dict[cst.CSTNode, Span]:
        """Spans in the sparse text's lines, as the source's lines."""
        if self.sparse is None:
            return spans
        line = self.sparse.original_line
        return {
            k: dataclasses.replace(s, line=line(s.line), end_line=line(s.end_line)) for k, s in spans.items()
        }

    def code(self, new_module: cst.Module, source: str) -> tuple[str, list[str], tuple[tuple[int, int], ...]]:
        """The code of `new_module` (the module of `source`, transformed), what of it was generated
        (as much as must parse for it to parse: `Sparse.checkable`), and the (first, last) lines
        of the source they replace."""
        edited = None
        if self.statements is not None:
            code, generated, edited = self.statements.code(new_module)
        else:
            code = module_code(new_module)
            generated = [code]
        checked = generated if self.sparse is None else list(map(self.sparse.checkable, generated))
        if edited is None:
            return with_form_feeds(source, self._restored(code)), checked, _ALL_LINES
        if self.sparse is not None:
            line = self.sparse.original_line  # a range ends before the next line of the sparse text
            edited = [(line(first), line(last + 1) - 1) for first, last in edited]
        return self._restored(code), checked, tuple(edited)

    def _restored(self, code: str) -> str:
        return self.sparse.restore(code) if self.sparse is not None else code


_ALL_LINES = ((1, sys.maxsize),)


# 8. verify


def _check_parses(code: str) -> str | None:
    try:
        for _ in python_chunks(code):
            pass
    except (SyntaxError, ValueError, RecursionError) as error:
        return str(error)
    return None


def _culprits(source: str, rules: Sequence[Rule], path: str | None, settings: Settings) -> list[str]:
    """The rules that, run alone over the whole source, produce code that does not parse."""
    whole = _Parsed(parse(source, path))
    culprits = []
    for rule in rules:
        done = whole.transform(source, [rule], settings.declining(()))
        if done is not None and _check_parses(module_code(done[0])) is not None:
            culprits.append(rule.code)
    return culprits or [rule.code for rule in rules]


# positions and output: the helpers


_TRAILING_WHITESPACE = " \t\f\v\r\n"
_BOM = "\ufeff"


def with_the_edges_of(source: str, code: str) -> str:
    """`code` with the last bytes of `source` that LibCST's round trip loses put back: a final
    lone CR, blank lines before a last whitespace-only line (`parse_module("x=1\\n\\n   ").code ==
    "x=1\\n   "`). Fixes never edit the trailing whitespace of a module, so it is the source's."""
    if code == source:
        return code
    tail = source[_end_of_code(source) :]
    end = _end_of_code(code)
    return code if code[end:] == tail else code[:end] + tail


def _end_of_code(text: str) -> int:
    """Where the trailing whitespace of `text` starts (found without copying a long text)."""
    end = len(text)
    while end and text[end - 1] in _TRAILING_WHITESPACE:
        end -= 1
    return end
