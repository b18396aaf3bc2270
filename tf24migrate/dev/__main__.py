"""`python -m tf24migrate.dev regen | new-rule`: the developer command (see the package docstring)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from tf24migrate.dev.scaffold import Kind, NewRule, ScaffoldError, check, write_rule

ROOT = Path(__file__).resolve().parents[2]
# The rule count docs/performance.md quotes (`benchmarks/figures.py` writes it with the rest).
RULE_COUNT = "- rules registered: **{rules}**, {default} of them run by default (`--list-rules`)"
_RULE_COUNT_LINE = re.compile(
    r"^- rules registered: \*\*\d+\*\*, \d+ of them run by default \(`--list-rules`\)$", re.M
)

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Regenerate what is generated from the rules, or add a rule: for a clone of the repository.",
)
RootOption = Annotated[
    Path,
    typer.Option(help="The clone of the repository to work in (default: the one this command runs from)."),
]


def use_checkout(root: Path) -> Path:
    """Load the rules of the clone at `root` (its `transforms/`), and check it is one."""
    root = root.resolve()
    if not (root / "pyproject.toml").is_file() or not (root / "transforms").is_dir():
        raise ScaffoldError(
            f"{root} is not a clone of tf24migrate: run this from the repository, or pass --root"
        )
    import importlib

    package = importlib.import_module("tf24migrate.transforms")
    package.__path__[:] = [str(root / "transforms")]  # the spec shares this list
    return root


def regenerate(root: Path, code: str | None = None) -> list[Path]:
    """Write the trigger table, the rule entries, the rule reference, the rule count quoted in
    docs/performance.md and the fixture snapshots (of `code` only, if given) of the clone at `root`;
    the paths whose content changed."""
    from tf24migrate.catalogue import entries
    from tf24migrate.catalogue.docs import render_reference
    from tf24migrate.catalogue.generated import sources_digest
    from tf24migrate.catalogue.prefilter import table_source
    from tf24migrate.catalogue.selection import all_rules
    from tf24migrate.dev.fixtures import all_cases, update

    sources_digest.cache_clear()  # the rules' sources may have been written in this process
    changed = []
    generated = {
        root / "tf24migrate" / "catalogue" / "trigger_table.py": table_source(),
        root / "tf24migrate" / "catalogue" / "entry_table.py": entries.table_source(),
        root / "docs" / "rules.md": render_reference(all_rules()),
    }
    figures = root / "docs" / "performance.md"
    if figures.exists():  # its quoted rule count is the registry's, not a measure
        rules = all_rules()
        line = RULE_COUNT.format(rules=len(rules), default=sum(rule.default for rule in rules))
        generated[figures] = _RULE_COUNT_LINE.sub(
            lambda _: line, figures.read_text(encoding="utf-8"), count=1
        )
    for path, text in generated.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    for case in all_cases(root / "fixtures", code):
        changed += update(case)
    return changed


def _report(root: Path, paths: list[Path], what: str) -> None:
    for path in paths:
        typer.echo(f"{what} {path.relative_to(root)}")


@app.command()
def regen(
    root: RootOption = ROOT,
    code: Annotated[str | None, typer.Option(help="Regenerate only this rule's fixture snapshots.")] = None,
) -> None:
    """Write the trigger table, docs/rules.md, the rule count docs/performance.md quotes and every
    fixture's snapshots from the rules; read the diff (`git diff`) before you commit it."""
    root = use_checkout(root)
    changed = regenerate(root, code)
    _report(root, changed, "wrote")
    if not changed:
        typer.echo("everything generated is current")


@app.command()
def releases(root: RootOption = ROOT) -> None:
    """Diff the real TF 2.3.0 and 2.4.0 (the runtimes of `scripts/runtimes.py`; TF 2.15.1 of this
    environment for whether new homes last) and write `tf24migrate/model/release_diff.py`, the data of
    TF24508 and TF24509; probe which TF 2.4.0 functions do not dispatch on Keras symbolic values, and
    which dispatch but raise where TF 2.3.0 ran the same call, and write
    `tf24migrate/model/symbolic_dispatch.py`, the data of TF24214 (some minutes); then run `regen`."""
    from tf24migrate.dev import releases as data

    root = use_checkout(root)
    try:
        texts = {
            "release_diff.py": data.table_source(*data.probe_releases()),
            "symbolic_dispatch.py": data.dispatch_source(data.probe_symbolic()),
        }
    except data.ReleaseError as error:
        typer.echo(f"tf24migrate.dev: error: {error}", err=True)
        raise typer.Exit(2) from None
    written = []
    for name, text in texts.items():
        path = root / "tf24migrate" / "model" / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    if not written:
        typer.echo("the release data are current")
        return
    _report(root, written, "wrote")


@app.command("new-rule")
def new_rule(
    code: Annotated[str, typer.Argument(help="The new code, in its family's range: TF24111.")],
    name: Annotated[str, typer.Argument(help="The new name: lowercase words joined by '-'.")],
    family: Annotated[str, typer.Option(help="The family package under transforms/: distribute, keras, ...")],
    kind: Annotated[
        Kind, typer.Option(help="A rename-like row of the family's renames.py, or a structural rule.")
    ],
    old: Annotated[
        str,
        typer.Option(help="What the rule matches: a qualified name (tensorflow.x.Y), a method or a keyword."),
    ],
    new: Annotated[str | None, typer.Option(help="The spelling the fix writes (rename kinds).")] = None,
    callee: Annotated[
        list[str] | None,
        typer.Option(help="A function or method taking the keyword (rename-keyword; repeat)."),
    ] = None,
    new_since: Annotated[str, typer.Option(help="The first release with the new spelling.")] = "2.4",
    old_removed: Annotated[
        str | None,
        typer.Option(
            help="The first release where the old spelling fails (the rule is then an error, else a note)."
        ),
    ] = None,
    root: RootOption = ROOT,
) -> None:
    """Write a new rule (a row of its family's renames.py, or a module), a positive and a negative
    fixture, and everything generated from them. Then fill in its docstring's `Versions:` line,
    add the negative cases the rule needs (aliases, shadowed names, tf.compat.v1, shims), and run
    `regen` again."""
    from tf24migrate.catalogue.selection import all_rules

    try:
        root = use_checkout(root)
        rule = NewRule(code, name, family, kind, old, new, tuple(callee or ()), new_since, old_removed)
        check(rule, {r.code: r.name for r in all_rules()})
        written = write_rule(root, rule)
    except ScaffoldError as error:
        typer.echo(f"tf24migrate.dev: error: {error}", err=True)
        raise typer.Exit(2) from None
    for module in [m for m in sys.modules if m.startswith("tf24migrate.transforms.")]:
        del sys.modules[module]  # loaded to check the code and name: load them again, with the new rule
    all_rules.cache_clear()
    _report(root, written, "wrote")
    _report(root, [p for p in regenerate(root, code) if p not in written], "wrote")


def main() -> None:
    try:
        app()
    except ScaffoldError as error:
        typer.echo(f"tf24migrate.dev: error: {error}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
