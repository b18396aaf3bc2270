"""What each rule's trigger lets through on real TensorFlow code, against where the rule fires.

    python benchmarks/triggers.py [--tf-sources PATH] [FOLDER ...]

For each rule (all of them, `--select all`) and each tree: the `.py` files its needles let
through (`Rule.requires` and `Rule.triggers`, as `tf24migrate.catalogue.prefilter` decides), the lines
holding one of its triggers in those files (the statements the engine visits for it), the
files it actually reports in, of the files it lets through those where no default rule reports
anything (silent: the engine's work there was for nothing), and what its needles cost over the
tree (each file probed afresh for that rule alone, in milliseconds: a run probes a needle shared by
rules once). Then, under the default selection, the files the needles let through, those LibCST
then parses, and the silent ones among those.
The trees default to those of `repos.py` (the Model Garden 2.3.0 and 2.4.0 and TensorFlow 2.15's
`tensorflow/python`), fetched into `benchmarks/.data/` when missing. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from repos import trees

from tf24migrate.catalogue.prefilter import Probe, trigger_lines
from tf24migrate.catalogue.selection import all_rules, select_rules
from tf24migrate.catalogue.settings import Settings
from tf24migrate.engine import pipeline
from tf24migrate.engine.pipeline import run_rules
from tf24migrate.model.errors import RuleError, SourceSyntaxError


def measure(folder: Path) -> tuple[dict[str, tuple[int, int, int, int, float]], int, tuple[int, int, int]]:
    """`{code: (files let through, trigger lines in them, files it fires in, silent files let
    through, needles' cost in ms)}`, the number of files, and how many of them the default
    selection's needles let through, how many LibCST then parses (after the engine's import check:
    `pipeline._imports_allow`), and how many of those end with no finding."""
    rules = all_rules()
    every, default = select_rules("all"), select_rules()
    through_default = 0
    through = {rule.code: [0, 0, 0, 0, 0.0] for rule in rules}
    files = sorted(folder.rglob("*.py"))
    parsed = silent = 0
    parse = pipeline._Parsed.of.__func__
    parses: list[str] = []

    def counted(cls, source, rules, path):  # what LibCST parses (`run_rules` decides)
        parses.append(path)
        return parse(cls, source, rules, path)

    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for rule in rules:
            start = time.perf_counter()
            Probe(text).could_fire(rule.requires, rule.triggers)
            through[rule.code][4] += (time.perf_counter() - start) * 1000
        probe = Probe(text)
        passing = [rule for rule in rules if probe.could_fire(rule.requires, rule.triggers)]
        through_default += any(rule in default for rule in passing)
        if any(rule in default for rule in passing):
            pipeline._Parsed.of = classmethod(counted)
            try:
                parses.clear()
                found = run_rules(text, Settings(default), path=str(path)).findings
                parsed += str(path) in parses
                if not found:
                    silent += str(path) in parses
                    for rule in passing:
                        through[rule.code][3] += rule in default
            except (SourceSyntaxError, RuleError):
                pass
            finally:
                pipeline._Parsed.of = classmethod(parse)
        for rule in passing:
            through[rule.code][0] += 1
            through[rule.code][1] += len(trigger_lines(text, rule.triggers))
        if not passing:
            continue
        try:
            findings = run_rules(text, Settings(every), path=str(path)).findings
        except (SourceSyntaxError, RuleError):
            continue
        for code in {finding.code for finding in findings}:
            if code in through:
                through[code][2] += 1
    return (
        {code: tuple(counts) for code, counts in through.items()},
        len(files),
        (through_default, parsed, silent),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="trees to measure (default: repos.py's)")
    parser.add_argument("--tf-sources", type=Path, help="TensorFlow 2.15's tensorflow/python folder")
    args = parser.parse_args()
    named = {folder.name: folder for folder in args.folders} or trees(args.tf_sources)
    results = {name: measure(folder) for name, folder in named.items()}
    print(
        "| rule | "
        + " | ".join(f"{name}: files / lines let through, fires in, silent; ms" for name in results)
        + " |"
    )
    print("| --- |" + " --- |" * len(results))
    for rule in all_rules():
        cells = []
        for counts, _, _ in results.values():
            files, lines, fires, silent, cost = counts[rule.code]
            cells.append(f"{files} / {lines}, {fires}, {silent}; {cost:.0f}")
        default = "" if rule.default else " (not default)"
        print(f"| {rule.code} {rule.name}{default} | " + " | ".join(cells) + " |")
    print(
        "| let through, then parsed by LibCST, then silent (default rules) | "
        + " | ".join(
            f"{through} / {parsed} / {silent} of {count} files"
            for _, count, (through, parsed, silent) in results.values()
        )
        + " |"
    )


if __name__ == "__main__":
    main()
